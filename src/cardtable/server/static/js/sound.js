// @ts-check
// Optional table sounds (off by default; the Sounds option): short card and win sounds made
// with the Web Audio API in the page itself, so that nothing is downloaded for them.

import { options } from "./options.js";

let context = null;

function audio() {
  if (!context) {
    const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume();
  return context;
}

/** A soft burst of filtered noise: a card sliding onto the table. */
function swish(ctx, at, length = 0.09, pitch = 1800, volume = 0.22) {
  const frames = Math.floor(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = pitch;
  const gain = ctx.createGain();
  gain.gain.value = volume;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(at);
}

/** A short bell-like note. */
function note(ctx, at, frequency, length = 0.35, volume = 0.12) {
  const osc = ctx.createOscillator();
  osc.type = "triangle";
  osc.frequency.value = frequency;
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(volume, at);
  gain.gain.exponentialRampToValueAtTime(0.001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length);
}

/** Play one of the table's sounds ("play", "draw", "deal", "win") when the option is on. */
export function playSound(kind, count = 1) {
  if (!options().sounds) return;
  const ctx = audio();
  if (!ctx) return;
  const now = ctx.currentTime + 0.01;
  if (kind === "play") swish(ctx, now, 0.08, 2200);
  else if (kind === "draw") swish(ctx, now, 0.12, 1200, 0.18);
  else if (kind === "deal") {
    for (let i = 0; i < Math.min(count, 14); i += 1) swish(ctx, now + i * 0.06, 0.07, 2000, 0.15);
  } else if (kind === "win") {
    [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => note(ctx, now + i * 0.12, f));
  }
}
