import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';

/** /terms-and-conditions, written for a young reader. */
export function TermsPage() {
  return (
    <article className="page page--prose">
      <PageHeading>Terms and conditions</PageHeading>
      <p className="lead">These are the rules for using Hearth. They are short. Please read them, and ask a carer if anything is unclear.</p>

      <h2>What Hearth is for</h2>
      <p>Hearth is your space. You can write in your journal, tell staff how you feel, see your calendar, work on your objectives and swap points for rewards.</p>

      <h2>Your account</h2>
      <ul>
        <li>Your account is just for you. Do not share your password.</li>
        <li>If you think someone knows your password, change it on the Change password page, or tell a carer.</li>
        <li>Two-factor sign-in adds a code after your password. It makes your account much safer.</li>
      </ul>

      <h2>Being kind</h2>
      <ul>
        <li>Do not post anything that could hurt or scare someone.</li>
        <li>Do not upload pictures of other people without asking them.</li>
        <li>Pictures are checked. A picture that is not suitable will not be added.</li>
      </ul>

      <h2>If you are worried</h2>
      <p>
        Hearth is not for emergencies. If you are in danger, call 999. If something is worrying you, talk to a carer or
        someone you trust, or use Voice to tell staff. You can also call Childline free on 0800 1111.
      </p>

      <h2>Changes</h2>
      <p>We may change these rules. If we make a big change, we will tell you in Hearth.</p>

      <p>
        Read how we look after your information in the <Link to="/privacy-policy">privacy policy</Link>.
      </p>
    </article>
  );
}
