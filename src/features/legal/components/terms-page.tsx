import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';

/** /terms-and-conditions, written for a young reader; what it says matches what the app does (docs/decisions.md "Shell gaps (issue 11)"). */
export function TermsPage() {
  return (
    <article className="page page--prose">
      <PageHeading>Terms and conditions</PageHeading>
      <p className="lead">These are the rules for using Hearth. They are short. Please read them, and ask a carer if anything is unclear.</p>

      <h2>What Hearth is for</h2>
      <p>Hearth is your space. Your home may switch some parts on or off for you. You can:</p>
      <ul>
        <li>write in your journal: words, a drawing, a feeling or a photo, private unless you share it;</li>
        <li>use Voice to tell staff about a worry or a complaint, send them a message, or share good news;</li>
        <li>see your objectives, comment on them, and review one when it is finished to earn reward points;</li>
        <li>swap your points for rewards your home offers;</li>
        <li>read documents staff share with you, like house rules, books, photos and videos, and fill in forms;</li>
        <li>see your calendar and who is working at your home today.</li>
      </ul>

      <h2>Your account</h2>
      <ul>
        <li>Your account is just for you. Do not share your password.</li>
        <li>If you think someone knows your password, change it on the Change password page, or tell a carer.</li>
        <li>Two-factor sign-in adds a code after your password. It makes your account much safer.</li>
        <li>On a shared phone or tablet, always sign out when you finish.</li>
      </ul>

      <h2>Points and rewards</h2>
      <ul>
        <li>You earn 20 points for reviewing an objective once it is finished.</li>
        <li>When you swap points for a reward, the points are taken straight away and staff decide whether to say yes.</li>
        <li>If staff say no, you get all those points back. You can see every swap and what staff decided in your reward history.</li>
        <li>Points are not money. They cannot be swapped for money or moved to someone else.</li>
      </ul>

      <h2>Being kind</h2>
      <ul>
        <li>Do not post anything that could hurt or scare someone.</li>
        <li>Do not upload pictures of other people without asking them.</li>
        <li>Pictures are checked. A picture that is not suitable will not be added.</li>
        <li>Documents and forms from staff are for you (or your home). Please do not copy them for people outside your home.</li>
      </ul>

      <h2>When you are offline</h2>
      <p>
        Hearth keeps working without Wi-Fi. What you write or send is kept safe on your device and sent when you are back
        online. If you sign out before it is sent, Hearth asks you first, because signing out deletes it from the device.
      </p>

      <h2>If you are worried</h2>
      <p>
        Hearth is not for emergencies, and staff may not read a message straight away. If you are in danger, call 999. If
        something is worrying you, talk to a carer or someone you trust, or use Voice to tell staff. You can also call
        Childline free on 0800 1111.
      </p>

      <h2>Changes</h2>
      <p>We may change these rules. If we make a big change, we will tell you in Hearth.</p>

      <p>
        Read how we look after your information in the <Link to="/privacy-policy">privacy policy</Link>.
      </p>
    </article>
  );
}
