import { useUserPhoto } from '@/data/hooks';
import { Avatar } from './avatar';

interface Person {
  id: string;
  first_name: string;
  last_name: string;
  has_photo: boolean;
}

/** A staff member's photo from the replica's encrypted cache, or their initials. Decorative: the name is beside it. */
export function PersonAvatar({ person, size = 40 }: { person: Person; size?: number }) {
  const photo = useUserPhoto(person.has_photo ? person.id : null);
  return <Avatar src={photo} firstName={person.first_name} lastName={person.last_name} size={size} />;
}
