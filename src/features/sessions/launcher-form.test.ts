import { describe, expect, it } from 'vitest';
import { launcherDefaults, launchSummary } from './launcher-form.ts';

describe('launchSummary', () => {
  it('says what the defaults start', () => {
    expect(launchSummary(launcherDefaults)).toBe('Full browser, blank page, 20 min, no profile');
  });

  it('follows the Advanced fields: kiosk, a start URL, the timeout in minutes, the profile', () => {
    expect(
      launchSummary({ presentation: 'kiosk', start_url: ' https://example.com/a ', timeout: '90', profile: 'shop' }),
    ).toBe('Kiosk, https://example.com/a, 2 min, profile shop');
  });

  it('leaves out a timeout that is no number of seconds, and reads an emptied one as the default', () => {
    expect(launchSummary({ ...launcherDefaults, timeout: 'abc' })).toBe('Full browser, blank page, no profile');
    expect(launchSummary({ ...launcherDefaults, timeout: ' ' })).toBe('Full browser, blank page, 20 min, no profile');
  });
});
