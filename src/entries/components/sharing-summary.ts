/** "Only you will see this entry." / "You, Ali Hassan and home management will see this entry." */
export function sharingSummary(names: readonly string[], management: boolean): string {
  const people = ['You', ...names, ...(management ? ['home management'] : [])];
  if (people.length === 1) return 'Only you will see this entry.';
  const last = people[people.length - 1];
  return `${people.slice(0, -1).join(', ')} and ${last} will see this entry.`;
}

export const fullName = (person: { first_name: string; last_name: string }): string => `${person.first_name} ${person.last_name}`.trim();
