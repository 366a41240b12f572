// A stand-in for server/lib/nsfw-worker.mjs in the pool's tests: the same messages, no model.
// The picture's bytes are a JSON script of what to do:
//   { tag, frames: 3, hang: [1], undecodable: [2], crash: [0], wait: 'release' }
// `frames`: how many frames the probe reports (frame indexes 0..n-1); `hang`: frames that never
// answer; `undecodable` / `crash`: frames answered undecodable / that end the thread; `wait`: the
// task answers only after that word was posted on the broadcast channel. Every task posts
// { event: 'start' | 'end', tag, frame, thread } on the channel 'fake-nsfw', so a test sees which
// thread ran what and when.
import { BroadcastChannel, parentPort, threadId } from 'node:worker_threads';

const channel = new BroadcastChannel('fake-nsfw');
channel.unref();
const words = new Set();
const waiting = [];
channel.onmessage = ({ data }) => {
  if (typeof data?.word !== 'string') return;
  words.add(data.word);
  for (const w of waiting.splice(0)) w();
};
const heard = (word) =>
  new Promise((resolve) => {
    const check = () => (words.has(word) ? resolve() : waiting.push(check));
    check();
  });

parentPort.postMessage({ ready: true, backend: 'fake', loadMs: 0 });

const PROBABILITIES = { Drawing: 0.05, Hentai: 0.01, Neutral: 0.9, Porn: 0.02, Sexy: 0.02 };

parentPort.on('message', async ({ id, bytes, frame, probe }) => {
  const script = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  const has = (list) => Array.isArray(list) && list.includes(frame);
  channel.postMessage({ event: 'start', tag: script.tag, frame, thread: threadId });
  if (probe) parentPort.postMessage({ id, frames: Array.from({ length: script.frames ?? 1 }, (_, i) => i) });
  if (has(script.crash)) process.exit(1);
  if (has(script.hang)) return;
  if (script.wait) await heard(script.wait);
  channel.postMessage({ event: 'end', tag: script.tag, frame, thread: threadId });
  if (has(script.undecodable)) parentPort.postMessage({ id, undecodable: `frame ${frame} is broken` });
  else parentPort.postMessage({ id, frame, probabilities: { ...PROBABILITIES, Porn: frame / 100 } });
});
