import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';

/**
 * /privacy-policy, written for a young reader. Each sentence is something the app and the server
 * really do (docs/decisions.md "Shell gaps (issue 11)"); change them together.
 */
export function PrivacyPage() {
  return (
    <article className="page page--prose">
      <PageHeading>Privacy policy</PageHeading>
      <p className="lead">This page explains what Hearth keeps about you, who can see it, and how we keep it safe.</p>

      <nav aria-labelledby="privacy-contents">
        <h2 id="privacy-contents">On this page</h2>
        <ul>
          <li>
            <a href="#privacy-keeps">What Hearth keeps</a>
          </li>
          <li>
            <a href="#privacy-who">Who can see what</a>
          </li>
          <li>
            <a href="#privacy-device">On your phone or tablet</a>
          </li>
          <li>
            <a href="#privacy-notifications">Notifications</a>
          </li>
          <li>
            <a href="#privacy-sign-out">When you sign out</a>
          </li>
          <li>
            <a href="#privacy-rights">Your rights and getting help</a>
          </li>
        </ul>
      </nav>

      <h2 id="privacy-keeps">What Hearth keeps</h2>
      <ul>
        <li>Your name, date of birth, your home, your key worker, and your photo if you have one.</li>
        <li>What you write or add: journal entries, drawings and feelings, Voice messages, comments, replies and photos.</li>
        <li>Your objectives, your comments and reviews on them, and your reward points.</li>
        <li>The rewards you swap points for, and what staff decided.</li>
        <li>The documents staff share with you, and your answers to any forms you send back.</li>
        <li>Your style (Fun or Gaming) and how your journal looks.</li>
        <li>When you sign in, and wrong passwords or codes, so we can stop someone guessing their way into your account.</li>
      </ul>
      <p>Photos you add are checked automatically by a computer, not a person, so that unsuitable pictures are not added.</p>

      <h2 id="privacy-who">Who can see what</h2>
      <h3>Your journal</h3>
      <ul>
        <li>Your journal is private. Only you can see an entry, unless you choose to share it.</li>
        <li>When you share an entry, only the people you choose (and home management, if you choose them) can see it and reply.</li>
      </ul>
      <h3>Voice</h3>
      <ul>
        <li>
          What you send with Voice goes to your key worker and your home's management, unless you untick them. They can read it
          and reply.
        </li>
      </ul>
      <h3>Objectives and rewards</h3>
      <ul>
        <li>Your objectives are set by staff at your home. All the staff at your home can see them, how they went, and your comments and reviews.</li>
        <li>Staff at your home can see your points, the rewards you ask for and your reward history, because they decide on each reward.</li>
      </ul>
      <h3>Documents and forms</h3>
      <ul>
        <li>Staff share documents with you, or with everyone at your home. Staff at your home can see which documents you have.</li>
        <li>When you send a form back, staff at your home can read your answers. They keep them even if the form is later taken away.</li>
      </ul>
      <h3>Everything else</h3>
      <ul>
        <li>Other young people cannot see your things, and you cannot see theirs.</li>
        <li>
          If something you share makes staff worried about your safety, they may need to tell other people whose job is to keep
          you safe. They should talk to you about it.
        </li>
      </ul>

      <h2 id="privacy-device">On your phone or tablet</h2>
      <ul>
        <li>Hearth keeps a copy of your things on the device, so it works without Wi-Fi.</li>
        <li>
          That copy is locked (encrypted), so other apps cannot read it. The key is kept by the device so it cannot be copied
          out. On a few older devices the key cannot be locked away, but your things are still encrypted.
        </li>
        <li>Things you write while offline, and forms or reviews you have started, are kept in that locked copy until they are sent, so you do not lose them.</li>
        <li>
          Documents can be kept on the device to read offline. Small ones are kept automatically. They are locked like
          everything else, and the Documents page shows how much space they use and lets you free it.
        </li>
        <li>On a shared tablet, each young person has their own locked copy. Nobody else can read yours or send what you wrote.</li>
        <li>The shapes you choose in the Menu, your site and your region stay on the device. They say nothing about you.</li>
      </ul>

      <h2 id="privacy-notifications">Notifications</h2>
      <ul>
        <li>You can choose to get a notification when there is something new, like a reply from staff or a decision about a reward.</li>
        <li>A notification only ever says “Something new in Hearth”. It never says who wrote or what, so nothing private shows on your lock screen.</li>
        <li>You can turn notifications off in your phone or browser settings. Signing out turns them off for this device.</li>
      </ul>

      <h2 id="privacy-sign-out">When you sign out</h2>
      <ul>
        <li>Hearth removes your things from the device: your locked copy and its key, documents kept offline, and anything waiting to be sent.</li>
        <li>If something has not been sent yet, Hearth tells you first, so you can wait for it to send.</li>
        <li>Your things are still safe on Hearth's server, so they come back when you sign in again.</li>
        <li>On a shared tablet, always sign out when you finish, so the next person cannot see your things.</li>
      </ul>

      <h2 id="privacy-rights">Your rights and getting help</h2>
      <p>
        You can ask to see what Hearth keeps about you, and ask us to correct anything that is wrong. Ask a carer or your
        home manager to help you.
      </p>
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
