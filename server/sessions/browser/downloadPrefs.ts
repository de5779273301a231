import fs from 'node:fs';
import path from 'node:path';
import type { SessionUser } from '../isolation/sessionUsers.ts';

/**
 * The profile's own download settings, written before Chromium first starts: downloads go to the
 * session's downloads folder, without a prompt, and a page may start several. DevTools'
 * Browser.setDownloadBehavior (forced to that folder by the policy) wins while it is in force, but
 * Chromium drops it back to "default" when the client that set it disconnects, and a browser
 * context a client creates starts at "default": both then land here rather than in ~/Downloads.
 */
export function writeDownloadPrefs(profileDir: string, downloads: string, user: SessionUser | null): void {
  const dir = path.join(profileDir, 'Default');
  // recursive: a profile laid in before the start (server/profiles) may have made it already.
  fs.mkdirSync(dir, { mode: 0o700, recursive: true });
  const file = path.join(dir, 'Preferences');
  const prefs = {
    download: { default_directory: downloads, prompt_for_download: false, directory_upgrade: true },
    savefile: { default_directory: downloads },
    profile: { default_content_setting_values: { automatic_downloads: 1 } },
  };
  fs.writeFileSync(file, JSON.stringify(prefs), { mode: 0o600, flag: 'wx' });
  if (user) {
    fs.chownSync(dir, user.uid, user.gid);
    fs.chownSync(file, user.uid, user.gid);
  }
}
