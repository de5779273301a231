import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

// The shipped deploy files (deploy/, Dockerfile) are not run here (no Docker engine, no cluster):
// scripts/compose-check.sh runs them where Docker is. This reads them on every test run, so what
// makes a drain hold and a full cluster stay reachable cannot drift (README, "Deploy").
const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** What the service uses from root's capabilities (the Dockerfile says why, one by one). */
const CAPABILITIES = ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'SETUID', 'SETGID', 'KILL', 'NET_ADMIN', 'SYS_NICE'];
const NAMESPACE_CALLS = ['clone', 'clone3', 'unshare', 'setns'];

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed YAML, checked field by field below

const compose = parse(read('deploy/compose.yaml'), { merge: true }) as Doc;
const nginx = read('deploy/nginx.conf');
const k8s = parseAllDocuments(read('deploy/k8s/browserdesk.yaml')).map((d) => d.toJS() as Doc);
const ofKind = (kind: string) => k8s.filter((d) => d.kind === kind);
const seconds = (s: string) => Number(/^(\d+)s$/.exec(s)?.[1]);

describe('deploy/compose.yaml', () => {
  const nodes = ['node1', 'node2'].map((n) => compose.services[n] as Doc);

  it('gives each node more than DRAIN_TIMEOUT_S to drain before a SIGKILL', () => {
    for (const node of nodes) {
      const drain = Number(node.environment.DRAIN_TIMEOUT_S);
      expect(drain).toBeGreaterThan(0);
      expect(seconds(node.stop_grace_period)).toBeGreaterThan(drain);
    }
  });

  it('sets what a proxy in front needs, MAX_SESSIONS per node, and a volume and NODE_URL per node', () => {
    for (const node of nodes) {
      expect(node.environment.MAX_CONNECTIONS_PER_ADDRESS).toBe('0');
      expect(node.environment.MAX_SESSIONS).toBeDefined();
      expect(node.environment.ARTIFACTS_MAX_BYTES).toBeDefined();
    }
    expect(new Set(nodes.map((n) => n.environment.NODE_URL)).size).toBe(2);
    expect(new Set(nodes.map((n) => String(n.volumes[0]).split(':')[0])).size).toBe(2);
  });

  it('drops every capability but those used, and loads the shipped seccomp profile', () => {
    for (const node of nodes) {
      expect(node.cap_drop).toEqual(['ALL']);
      expect([...node.cap_add].sort()).toEqual([...CAPABILITIES].sort());
      const [opt] = node.security_opt as string[];
      expect(opt).toBe('seccomp=./seccomp/browserdesk.json');
      expect(fs.existsSync(path.join(ROOT, 'deploy/seccomp/browserdesk.json'))).toBe(true);
    }
  });

  it('lets nginx start without the nodes: no depends_on them, one alias it resolves', () => {
    expect(compose.services.lb.depends_on).toBeUndefined();
    for (const node of nodes) expect(node.networks.default.aliases).toEqual(['browserdesk-nodes']);
  });
});

describe('deploy/nginx.conf', () => {
  it('resolves the nodes at request time through a resolver with a short validity', () => {
    const valid = /^\s*resolver\s+\S+\s+valid=(\d+)s/m.exec(nginx);
    expect(valid).not.toBeNull();
    expect(Number(valid![1])).toBeLessThanOrEqual(30);
    // No static upstream (resolved once at start), and every proxy_pass through the variable.
    expect(nginx).not.toMatch(/^\s*upstream\s/m);
    const passes = [...nginx.matchAll(/^\s*proxy_pass\s+(\S+);/gm)].map((m) => m[1]);
    expect(passes.length).toBeGreaterThan(0);
    for (const pass of passes) expect(pass).toBe('http://$browserdesk_nodes:8080');
    expect(nginx).toMatch(/set \$browserdesk_nodes browserdesk-nodes;/);
  });

  it('caps connections per client, since the nodes do not (they see only nginx)', () => {
    expect(nginx).toMatch(/^\s*limit_conn_zone \$binary_remote_addr /m);
    expect(nginx).toMatch(/^\s*limit_conn per_client \d+;/m);
  });
});

describe('deploy/k8s/browserdesk.yaml', () => {
  const set = ofKind('StatefulSet')[0] as Doc;
  const pod = set?.spec.template.spec as Doc;
  const container = pod?.containers[0] as Doc;
  const env = Object.fromEntries((container?.env as Doc[]).map((e) => [e.name, e.value]));

  it('runs the nodes as a StatefulSet: a stable NODE_URL and a volume per pod', () => {
    expect(ofKind('StatefulSet')).toHaveLength(1);
    expect(set.spec.serviceName).toBe('browserdesk-nodes');
    const headless = ofKind('Service').find((s) => s.metadata.name === 'browserdesk-nodes');
    expect(headless?.spec.clusterIP).toBe('None');
    expect(env.NODE_URL).toContain('$(POD_NAME).browserdesk-nodes.');
    expect(set.spec.volumeClaimTemplates[0].metadata.name).toBe('data');
    expect(container.volumeMounts).toContainEqual({ name: 'data', mountPath: '/data' });
  });

  it('gives a pod more than DRAIN_TIMEOUT_S before a SIGKILL', () => {
    const drain = Number(env.DRAIN_TIMEOUT_S);
    expect(drain).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(drain);
  });

  it('keeps pods apart and disrupts one at a time', () => {
    const [pdb] = ofKind('PodDisruptionBudget');
    expect(pdb?.spec.maxUnavailable).toBe(1);
    expect(pdb?.spec.selector).toEqual(set.spec.selector);
    const [preferred] = pod.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution;
    expect(preferred.podAffinityTerm.topologyKey).toBe('kubernetes.io/hostname');
    expect(preferred.podAffinityTerm.labelSelector).toEqual(set.spec.selector);
  });

  it('probes "serves" (readyz, healthz), never "has room", and has a startupProbe', () => {
    expect(container.startupProbe.httpGet.path).toBe('/api/healthz');
    expect(container.readinessProbe.httpGet.path).toBe('/api/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/api/healthz');
  });

  it('sizes storage to ARTIFACTS_MAX_BYTES: the volume holds them, ephemeral storage is requested and capped', () => {
    const gib = (q: string) => Number(/^(\d+)Gi$/.exec(q)?.[1]) * 2 ** 30;
    expect(gib(set.spec.volumeClaimTemplates[0].spec.resources.requests.storage)).toBeGreaterThan(
      Number(env.ARTIFACTS_MAX_BYTES),
    );
    expect(container.resources.requests['ephemeral-storage']).toBeDefined();
    expect(container.resources.limits['ephemeral-storage']).toBeDefined();
  });

  it('sets the limits a proxy in front needs, and MAX_SESSIONS', () => {
    expect(env.MAX_CONNECTIONS_PER_ADDRESS).toBe('0');
    expect(Number(env.MAX_SESSIONS)).toBeGreaterThan(0);
  });

  it('drops every capability but those used, with the Localhost seccomp profile, in a namespace that allows it', () => {
    const sc = container.securityContext as Doc;
    expect(sc.capabilities.drop).toEqual(['ALL']);
    expect([...sc.capabilities.add].sort()).toEqual([...CAPABILITIES].sort());
    expect(sc.allowPrivilegeEscalation).toBe(false);
    expect(sc.seccompProfile).toEqual({ type: 'Localhost', localhostProfile: 'profiles/browserdesk.json' });
    const [ns] = ofKind('Namespace');
    expect(ns?.metadata.labels['pod-security.kubernetes.io/enforce']).toBe('privileged');
    for (const doc of k8s.filter((d) => d.kind !== 'Namespace')) expect(doc.metadata.namespace).toBe(ns!.metadata.name);
  });
});

describe('deploy/seccomp/browserdesk.json', () => {
  it('allows the namespace calls of Chromium’s sandbox and refuses the kernel’s administration', () => {
    const profile = JSON.parse(read('deploy/seccomp/browserdesk.json')) as Doc;
    expect(profile.defaultAction).toBe('SCMP_ACT_ALLOW');
    const refused = (profile.syscalls as Doc[]).flatMap((s) => {
      expect(s.action).toBe('SCMP_ACT_ERRNO');
      return s.names as string[];
    });
    for (const call of NAMESPACE_CALLS) expect(refused).not.toContain(call);
    for (const call of ['init_module', 'kexec_load', 'mount', 'open_by_handle_at', 'bpf', 'keyctl'])
      expect(refused).toContain(call);
  });
});

describe('Dockerfile and package.json', () => {
  it('builds and runs on Node 22 and starts the compiled server, without tsx', () => {
    const dockerfile = read('Dockerfile');
    const bases = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(bases).toEqual(['node:22-bookworm', 'node:22-bookworm-slim']);
    expect(dockerfile).toMatch(/^\s*(RUN|&&) node scripts\/build-server\.mjs/m);
    expect(dockerfile).toMatch(/^CMD \["node", "--enable-source-maps", "build\/server\/main\.mjs"\]$/m);
    expect(dockerfile).not.toMatch(/^CMD .*tsx/m);
    const pkg = JSON.parse(read('package.json')) as Doc;
    expect(pkg.engines.node).toBe('>=22.12');
    expect(pkg.devDependencies.node).toMatch(/^22\./);
  });
});
