/**
 * The Agent page's title: "Agent: <workflow>", or "Agent" before the name is known. A workflow
 * named by a person as "Agent: open info" keeps its own prefix instead of getting a second one.
 */
export function agentHeading(workflowName: string | null | undefined): string {
  const name = workflowName?.trim();
  if (!name) return 'Agent';
  return /^agent\s*:/i.test(name) ? name : `Agent: ${name}`;
}
