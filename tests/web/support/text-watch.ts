/**
 * Watches how many text nodes read exactly `text`, at every change of the page. A toast lives 6 s:
 * on a starved machine the test may look after it has gone, so tests ask what was seen instead of
 * what is on screen now.
 */
export interface TextWatch {
  /** Times the text came onto the page (from none to some). */
  appearances(): number;
  /** The most copies on the page at one moment. */
  mostAtOnce(): number;
  /** How many are on the page now. */
  now(): number;
  stop(): void;
}

export function watchText(text: string): TextWatch {
  let appearances = 0;
  let most = 0;
  let last = 0;
  const count = (): number => {
    let n = 0;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.nodeValue?.trim() === text) n += 1;
    return n;
  };
  const sample = () => {
    const n = count();
    if (last === 0 && n > 0) appearances += 1;
    most = Math.max(most, n);
    last = n;
  };
  const observer = new MutationObserver(sample);
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  sample();
  return { appearances: () => appearances, mostAtOnce: () => most, now: () => (sample(), last), stop: () => observer.disconnect() };
}
