// The followers' shared vocabulary (follow.ts, fleet-follow.ts): the state kept in
// `<data>/follow.json` for `cnpj-api status` and the server's metrics, and the follower's handle.
import fs from 'node:fs';
import path from 'node:path';

export interface FollowState {
  source: string;
  trust: string[];
  intervalMs: number;
  pid: number;
  startedAt: string;
  lastCheckAt: string | null;
  /** What the last check ended with: `current`, `pulled`, `failed`. */
  lastResult: string | null;
  lastRelease: string | null;
  lastError: string | null;
  /** A pull is running now. */
  pulling: boolean;
  /** Fleet mode (fleet-follow.ts): the fleet's release, the one staged here, and when they switch. */
  fleet?: { target: string | null; staged: string | null; switchAt: string | null };
}

export const FOLLOW_STATE_FILE = 'follow.json';

export function readFollowState(dataDir: string): FollowState | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, FOLLOW_STATE_FILE), 'utf8')) as FollowState;
  } catch {
    return null;
  }
}

export interface Follower {
  /** Runs one check now (unless one is running) and resolves when it ends. */
  check(): Promise<void>;
  stop(): Promise<void>;
}

/** A follower's state before its first check. */
export function newFollowState(source: string, trust: string[], intervalMs: number): FollowState {
  return {
    source,
    trust: trust.map((t) => path.resolve(t)),
    intervalMs,
    pid: process.pid,
    startedAt: new Date().toISOString(),
    lastCheckAt: null,
    lastResult: null,
    lastRelease: null,
    lastError: null,
    pulling: false,
  };
}
