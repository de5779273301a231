import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { SessionUser } from '../sessions/isolation/sessionUsers.ts';

/**
 * Runs as the session's user: makes `dir` and writes each file into it, failing on anything that is
 * already there. Read from stdin as JSON, so no file content or name is on a command line.
 */
const WRITER = `const fs=require('fs'),path=require('path');const c=[];process.stdin.on('data',(d)=>c.push(d)).on('end',()=>{const {dir,files}=JSON.parse(Buffer.concat(c).toString());fs.mkdirSync(dir,{mode:0o700});for(const f of files)fs.writeFileSync(path.join(dir,f.name),Buffer.from(f.base64,'base64'),{flag:'wx',mode:0o600});});`;

/**
 * Write files into a new folder `dir` inside the session's own tree, as the session's user. The
 * tree is that user's (it can rename and link anything in it), so a write as the service (root)
 * could be led through a link the session planted to any file of the host; as the session's user
 * it reaches only what the session could reach anyway. Without a session user (the service
 * cannot switch users) the session runs as the service and the write is the service's own.
 */
export async function writeAsSessionUser(
  user: SessionUser | null,
  dir: string,
  files: { name: string; base64: string }[],
): Promise<string[]> {
  const paths = files.map((f) => path.join(dir, f.name));
  if (!user) {
    fs.mkdirSync(dir, { mode: 0o700 });
    for (const [i, f] of files.entries())
      fs.writeFileSync(paths[i]!, Buffer.from(f.base64, 'base64'), { flag: 'wx', mode: 0o600 });
    return paths;
  }
  await new Promise<void>((resolve, reject) => {
    // spawn with uid/gid drops the service's supplementary groups (libuv calls setgroups(0) first).
    const child = spawn(process.execPath, ['-e', WRITER], {
      uid: user.uid,
      gid: user.gid,
      env: {},
      cwd: '/',
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()).length > 4000 && (stderr = stderr.slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `the files could not be written to the session's uploads folder: ${/Error: [^\n]*/.exec(stderr)?.[0] ?? `exit code ${code}`}`,
            ),
          ),
    );
    child.stdin.end(JSON.stringify({ dir, files }));
  });
  return paths;
}
