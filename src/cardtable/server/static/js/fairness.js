// @ts-check
// Provably fair deals in the browser: the page's random contribution before a table starts, and
// the Verify button's checks (Web Crypto SHA-256), by the formula of cardtable.fairness:
//   commitment = SHA-256(32 bytes of the server seed)
//   game seed  = first 8 bytes of SHA-256("cardtable-fair-v1\n" + server seed
//                + "\n" + seat + ":" + value for each contribution in seat order), >> 1

const TAG = "cardtable-fair-v1";

/** 16 random bytes from the browser's secure source, as 32 hex digits. */
export function newContribution() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return toHex(bytes);
}

function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(hex) {
  if (!/^[0-9a-f]*$/i.test(hex) || hex.length % 2) throw new Error("not hex digits");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** The commitment of a server seed (64 hex digits). */
export async function commitmentOf(serverSeed) {
  return toHex(await sha256(fromHex(serverSeed.toLowerCase())));
}

/** The game seed (as decimal text: it may exceed a JavaScript number's exact range). */
export async function deriveSeed(serverSeed, contributions) {
  const ordered = [...contributions].sort((a, b) => a.seat - b.seat || (a.value < b.value ? -1 : 1));
  let material = `${TAG}\n${serverSeed.toLowerCase()}`;
  for (const { seat, value } of ordered) material += `\n${seat}:${value.toLowerCase()}`;
  const digest = await sha256(new TextEncoder().encode(material));
  let n = 0n;
  for (let i = 0; i < 8; i += 1) n = (n << 8n) | BigInt(digest[i]);
  return (n >> 1n).toString();
}

/**
 * Check a finished game's fairness data against its seed: {ok, checks: [...], problem}.
 * `fair` is {commitment, contributions, server_seed}; `seedText` the game's seed as text.
 */
export async function verifyDeal(fair, seedText) {
  const checks = [];
  if (!fair) return { ok: false, checks, problem: "This game has no fairness data (no commitment)." };
  if (!fair.server_seed) return { ok: false, checks, problem: "The server seed has not been revealed yet." };
  let commitment;
  try {
    commitment = await commitmentOf(fair.server_seed);
  } catch {
    return { ok: false, checks, problem: "The revealed server seed is not 64 hex digits." };
  }
  if (commitment !== String(fair.commitment).toLowerCase()) {
    return { ok: false, checks, problem: `The commitment does not match the revealed server seed: its SHA-256 is ${commitment}, the table published ${fair.commitment}.` };
  }
  checks.push(`The commitment ${commitment} is the SHA-256 of the revealed server seed.`);
  const derived = await deriveSeed(fair.server_seed, fair.contributions || []);
  if (derived !== String(seedText)) {
    return { ok: false, checks, problem: `The game was dealt from seed ${seedText}, but the server seed and the contributions give ${derived}.` };
  }
  const given = (fair.contributions || []).length;
  checks.push(`The game seed ${derived} is the one derived from the server seed and ${given} ${given === 1 ? "contribution" : "contributions"}.`);
  return { ok: true, checks, problem: null };
}
