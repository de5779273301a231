import { agentToolInputs } from '../../contract/agentTools.ts';
import type { ToolKit } from './kit.ts';
import { pageLine } from './navigation.ts';
import { defineTool, type AgentTool } from './registry.ts';

/** browser_emulate_media: CSS media features of the session's page (print, dark mode, reduced motion, forced colors). */
export function mediaTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_emulate_media',
      description:
        "Make the session's page see other CSS media: media (screen or print), colorScheme (light, dark, no-preference), reducedMotion (reduce, no-preference), forcedColors (active, none); null puts one back to the default. The live view shows the page so too. It holds while the tools' connection to the session lasts.",
      input: agentToolInputs.browser_emulate_media,
      async run({ session_id, media, colorScheme, reducedMotion, forcedColors }) {
        const page = await kit.browsers.page(session_id);
        const asked = { media, colorScheme, reducedMotion, forcedColors };
        const given = Object.fromEntries(Object.entries(asked).filter(([, v]) => v !== undefined));
        await page.emulateMedia(given);
        const what = `Emulating ${Object.entries(given)
          .map(([k, v]) => `${k} ${v === null ? 'default' : String(v)}`)
          .join(', ')}`;
        return { content: [{ type: 'text', text: `${what}. ${await pageLine(page)}` }], summary: what };
      },
    }),
  ];
}
