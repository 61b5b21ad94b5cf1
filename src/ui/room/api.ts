// The classroom server's three HTTP calls (src/classroom/protocol.ts), each answer checked
// against its schema. Where no server answers (the static app on a plain host), `health` says
// so, and the page explains how to run one instead of failing.

import * as v from 'valibot';
import { CreatedRoom, Health, RoomInfo } from '../../classroom/protocol.ts';

export type Checked<T> = { ok: true; value: T } | { ok: false; why: string };

async function call<T>(
  schema: v.GenericSchema<unknown, T>,
  path: string,
  init?: RequestInit,
): Promise<Checked<T>> {
  let res: Response;
  try {
    res = await fetch(path, { ...init, headers: { 'content-type': 'application/json' } });
  } catch {
    return { ok: false, why: 'no answer from this page’s server' };
  }
  if (res.status === 404) return { ok: false, why: 'not found' };
  if (!res.ok) return { ok: false, why: `the server answered ${String(res.status)}` };
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    return { ok: false, why: 'the answer is not JSON (a static host, not a classroom server)' };
  }
  const r = v.safeParse(schema, body);
  return r.success
    ? { ok: true, value: r.output }
    : { ok: false, why: 'the answer is not a classroom server’s' };
}

/** Whether a classroom server serves this page. */
export const health = () => call(Health, '/api/health');

export const createRoom = (title: string) =>
  call(CreatedRoom, '/api/rooms', { method: 'POST', body: JSON.stringify({ title }) });

export const roomInfo = (code: string) => call(RoomInfo, `/api/rooms/${encodeURIComponent(code)}`);
