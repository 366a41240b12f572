import { Link } from 'react-router-dom';
import { useFeatureFlags } from '@/data/session-store';
import { Icon, type IconName } from '@/components/icon';

interface QuickLink {
  to: string;
  label: string;
  text: string;
  icon: IconName;
  flag?: string;
}

const quickLinks: QuickLink[] = [
  { to: '/journal', label: 'Journal', text: 'Write about your day', icon: 'journal', flag: 'journal_enabled' },
  { to: '/voice', label: 'Voice', text: 'Tell staff what you think', icon: 'voice', flag: 'voice_enabled' },
  { to: '/objectives', label: 'Objectives', text: 'See your goals', icon: 'objectives' },
  { to: '/rewards', label: 'Rewards', text: 'Swap your points', icon: 'rewards', flag: 'rewards_enabled' },
  { to: '/calendar', label: 'Calendar', text: 'What is coming up', icon: 'calendar' },
  { to: '/documents', label: 'Documents', text: 'Things staff shared', icon: 'documents' },
];

/** "Where to next?": a tile for each part of Hearth the site has switched on. */
export function QuickLinks() {
  const flags = useFeatureFlags();
  return (
    <section aria-labelledby="quick-links-title" className="section">
      <h2 id="quick-links-title" className="section-title">
        Where to next?
      </h2>
      <ul className="tiles">
        {quickLinks
          .filter((link) => !link.flag || flags[link.flag])
          .map((link) => (
            <li key={link.to}>
              <Link to={link.to} className={`tile tile--${link.icon}`}>
                <Icon name={link.icon} size={32} />
                <span className="tile__label">{link.label}</span>
                <span className="tile__text">{link.text}</span>
              </Link>
            </li>
          ))}
      </ul>
    </section>
  );
}
