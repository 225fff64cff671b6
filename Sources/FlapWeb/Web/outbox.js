// Messages written while flapd cannot be reached: kept on this device (IndexedDB), shown as
// waiting, and sent when flapd answers again. Each keeps the Idempotency-Key it was first sent
// with, so a send whose answer was lost, tried again, never shows the message twice.
import { api, E } from "/web/api.js";

const DATABASE = "vestawidget", STORE = "outbox";

function database() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "key" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function store(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(STORE, mode);
    const request = work(transaction.objectStore(STORE));
    transaction.oncomplete = () => { db.close(); resolve(request?.result); };
    transaction.onerror = () => { db.close(); reject(transaction.error); };
  });
}

// A new idempotency key: 128 random bits (crypto.getRandomValues works off a secure context too).
export function newKey() {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export const keep = (entry) => store("readwrite", (s) => s.put(entry));
export const discard = (key) => store("readwrite", (s) => s.delete(key));
export const waiting = async () => ((await store("readonly", (s) => s.getAll())) || []).sort((a, b) => a.at - b.at);

let flushing = null;
// Sends what waits, oldest first; stops at the first that still cannot reach flapd. `sent` is
// told of each one flapd answered (taken, or refused: either way it no longer waits here).
export function flush(sent) {
  flushing ??= (async () => {
    try {
      for (const entry of await waiting()) {
        const reply = await api(E.sendMessage(), entry.body, { "Idempotency-Key": entry.key });
        if (reply.status === 0 || reply.status >= 500) break;
        await discard(entry.key);
        sent?.(entry, reply);
      }
    } finally {
      flushing = null;
    }
  })();
  return flushing;
}
