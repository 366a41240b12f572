import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';

/** /privacy-policy, written for a young reader. */
export function PrivacyPage() {
  return (
    <article className="page page--prose">
      <PageHeading>Privacy policy</PageHeading>
      <p className="lead">This page explains what Hearth keeps about you, who can see it, and how we keep it safe.</p>

      <h2>What Hearth keeps</h2>
      <ul>
        <li>Your name, your home, and your photo if you have one.</li>
        <li>What you write or record: journal entries, Voice messages, comments and pictures.</li>
        <li>Your objectives, reward points and rewards.</li>
        <li>When you sign in, so we can keep your account safe.</li>
      </ul>

      <h2>Who can see what</h2>
      <ul>
        <li>Your journal is private. Only you can see an entry, unless you choose to share it.</li>
        <li>When you share a journal entry, only the people you choose can see it.</li>
        <li>Staff at your home can see what you send or share with them, like Voice messages and shared entries.</li>
        <li>Staff can reply and comment, so you can talk things through.</li>
        <li>
          Your objectives are set by staff at your home. All the staff at your home can see your objectives, how they went, and
          your comments and reviews on them.
        </li>
        <li>
          All the staff at your home can see your reward points and the rewards you swap them for, and they decide whether to
          approve each swap.
        </li>
        <li>If something you share makes staff worried about your safety, they may need to tell other people whose job is to keep you safe. They should talk to you about it.</li>
      </ul>

      <h2>On your phone or tablet</h2>
      <ul>
        <li>Hearth keeps a copy of your things on the device, so it works without Wi-Fi.</li>
        <li>That copy is locked (encrypted), so other apps cannot read it.</li>
        <li>A review you have started writing is kept in that locked copy until you send it, so you do not lose it.</li>
        <li>When you sign out, Hearth removes your things from the device.</li>
        <li>On a shared tablet, always sign out when you finish, so the next person cannot see your things.</li>
      </ul>

      <h2>Your rights</h2>
      <p>
        You can ask to see what Hearth keeps about you, and ask us to correct anything that is wrong. Ask a carer or your
        home manager to help you.
      </p>

      <h2>Getting help</h2>
      <p>
        If you have a question or a worry about your information, talk to a carer, your social worker or your home
        manager. You can also call Childline free on 0800 1111.
      </p>

      <p>
        See also the <Link to="/terms-and-conditions">terms and conditions</Link>.
      </p>
    </article>
  );
}
