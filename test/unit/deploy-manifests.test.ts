import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";

// deploy/k8s, the split mode on Kubernetes, checked offline: each document against its kind's
// schema (kubernetes-models: the Kubernetes OpenAPI schemas compiled to ajv validators, no cluster
// and no binary), then what a schema cannot see: the references between objects, and each
// service against docker-compose.yml (command, environment, ports), the contract the split mode
// is run and tested with.
const root = join(import.meta.dirname, "..", "..");
const folder = join(root, "deploy", "k8s");
const read = (file: string) => readFileSync(join(root, file), "utf8");

type Json = Record<string, any>;
interface Manifest {
  file: string;
  doc: Json;
}

/** Files kustomization.yaml leaves out, applied by hand or not at all (README, "Kubernetes"). */
const NOT_APPLIED = ["secret.example.yaml", "migrate-job.yaml", "ingress.example.yaml"];
/** Services whose /health asks the databases (through every subgraph): their liveness must not use it. */
const DEEP_HEALTH = ["adapter"];

const manifests: Manifest[] = readdirSync(folder)
  .filter((file) => file.endsWith(".yaml"))
  .sort()
  .flatMap((file) =>
    parseAllDocuments(readFileSync(join(folder, file), "utf8")).map((document) => {
      if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]!.message}`);
      return { file, doc: document.toJS() as Json };
    }),
  );
const all = (kind: string) => manifests.filter(({ doc }) => doc.kind === kind).map(({ doc }) => doc);
const applied = (kind: string) => manifests.filter(({ file, doc }) => doc.kind === kind && !NOT_APPLIED.includes(file)).map(({ doc }) => doc);
const named = (kind: string, name: string) => all(kind).find((doc) => doc.metadata.name === name);

const compose = parse(read("docker-compose.yml"), { merge: true }) as { services: Record<string, { command?: string[]; environment: Record<string, string> }> };
const services = Object.entries(compose.services).filter(([, service]) => service.command !== undefined);
const secret = named("Secret", "platform-secrets")!;
const secretKeys: Record<string, string> = { ...secret?.data, ...secret?.stringData };
const configMapKeys = (name: string): Record<string, string> | undefined => named("ConfigMap", name)?.data;

const selects = (selector: Record<string, string>, labels: Record<string, string>) => Object.entries(selector).every(([key, value]) => labels[key] === value);
const podLabels = (deployment: Json): Record<string, string> => deployment.spec.template.metadata.labels;
const containerOf = (deployment: Json): Json => deployment.spec.template.spec.containers[0];

/** A container's environment: name → its literal value, or where it comes from. */
function environment(container: Json): Map<string, { value?: string; secret?: { key: string; optional: boolean }; configMap?: string }> {
  const env = new Map<string, { value?: string; secret?: { key: string; optional: boolean }; configMap?: string }>();
  for (const from of container.envFrom ?? []) for (const [key, value] of Object.entries(configMapKeys(from.configMapRef.name) ?? {})) env.set(key, { value, configMap: from.configMapRef.name });
  for (const variable of container.env ?? []) {
    const ref = variable.valueFrom;
    if (ref?.secretKeyRef) env.set(variable.name, { secret: { key: ref.secretKeyRef.key, optional: ref.secretKeyRef.optional === true } });
    else if (ref?.configMapKeyRef) env.set(variable.name, { value: configMapKeys(ref.configMapKeyRef.name)?.[ref.configMapKeyRef.key], configMap: ref.configMapKeyRef.name });
    else env.set(variable.name, { value: variable.value });
  }
  return env;
}

/** The kubernetes-models class of a document's apiVersion and kind ("apps/v1" Deployment → kubernetes-models/apps/v1/Deployment). */
async function validateAgainstSchema(doc: Json): Promise<string | undefined> {
  const module = (await import(/* @vite-ignore */ `kubernetes-models/${doc.apiVersion}/${doc.kind}`).catch(() => undefined)) as Record<string, new (data: Json) => { validate(): void }> | undefined;
  const Model = module?.[doc.kind];
  if (!Model) return `no schema for ${doc.apiVersion} ${doc.kind}`;
  try {
    new Model(structuredClone(doc)).validate();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("deploy/k8s", () => {
  it("holds documents of known kinds only, each valid against its kind's schema", async () => {
    expect(manifests.length).toBeGreaterThan(20);
    const invalid: string[] = [];
    for (const { file, doc } of manifests) {
      if (doc.kind === "Kustomization") continue;
      const error = await validateAgainstSchema(doc);
      if (error) invalid.push(`${file}: ${doc.kind} ${doc.metadata?.name}: ${error}`);
    }
    expect(invalid).toEqual([]);
  });

  it("kustomization.yaml lists every manifest but the example Secret, the migrations Job and the Ingress example", () => {
    const kustomization = all("Kustomization")[0]!;
    const listed = kustomization.resources as string[];
    for (const file of listed) expect(existsSync(join(folder, file)), file).toBe(true);
    const files = readdirSync(folder).filter((file) => file.endsWith(".yaml"));
    expect([...listed, "kustomization.yaml", ...NOT_APPLIED].sort()).toEqual(files.sort());
  });

  it("gives every compose service a Deployment, a Service, a PodDisruptionBudget and a HorizontalPodAutoscaler", () => {
    expect(services.map(([name]) => name)).toEqual(["users", "finance", "identity", "agents", "gateway", "adapter"]);
    for (const [name] of services) {
      const deployment = named("Deployment", name);
      expect(deployment, name).toBeDefined();
      expect(deployment!.spec.replicas, name).toBe(2);
      expect(named("Service", name), name).toBeDefined();
      expect(named("PodDisruptionBudget", name)?.spec.minAvailable, name).toBe(1);
      const hpa = named("HorizontalPodAutoscaler", name);
      expect(hpa?.spec.minReplicas, name).toBe(2);
      expect(hpa?.spec.metrics.map((metric: Json) => metric.resource?.name), name).toEqual(["cpu"]);
    }
    expect(applied("Deployment").length).toBe(services.length);
  });

  it("runs each service's compose command on one image, as a non-root user on a read-only root", () => {
    const images = new Set<string>();
    for (const [name, service] of services) {
      const deployment = named("Deployment", name)!;
      const pod = deployment.spec.template.spec;
      expect(pod.containers, name).toHaveLength(1);
      const container = containerOf(deployment);
      expect(container.command, name).toEqual(service.command);
      images.add(container.image);
      expect(pod.securityContext.runAsNonRoot, name).toBe(true);
      // the image's USER is a name, which the kubelet cannot check for runAsNonRoot
      expect(pod.securityContext.runAsUser, name).toBeGreaterThan(0);
      expect(container.securityContext.readOnlyRootFilesystem, name).toBe(true);
      expect(container.securityContext.allowPrivilegeEscalation, name).toBe(false);
      // tsx and Node write temporary files there
      expect(container.volumeMounts.map((mount: Json) => mount.mountPath), name).toContain("/tmp");
      expect(container.resources.requests.cpu, name).toBeDefined();
      expect(container.resources.requests.memory, name).toBeDefined();
      expect(container.resources.limits.memory, name).toBeDefined();
    }
    const job = named("Job", "platform-migrate")!;
    images.add(containerOf(job).image);
    expect([...images]).toEqual(["platform"]);
  });

  it("probes each service's /health for readiness, and nothing that asks the database for liveness", () => {
    for (const [name] of services) {
      const container = containerOf(named("Deployment", name)!);
      const ports = new Set(container.ports.map((port: Json) => port.name));
      expect(container.readinessProbe.httpGet?.path, name).toBe("/health");
      for (const probe of ["startupProbe", "readinessProbe", "livenessProbe"]) {
        const action = container[probe]?.httpGet ?? container[probe]?.tcpSocket;
        expect(ports.has(action?.port), `${name} ${probe} names a container port`).toBe(true);
      }
      if (DEEP_HEALTH.includes(name)) expect(container.livenessProbe.httpGet, name).toBeUndefined();
      else expect(container.livenessProbe.httpGet.path, name).toBe("/health");
    }
  });

  it("every Service, PodDisruptionBudget and HorizontalPodAutoscaler reaches an existing Deployment's pods and ports", () => {
    const deployments = applied("Deployment");
    for (const service of all("Service")) {
      const targets = deployments.filter((deployment) => selects(service.spec.selector, podLabels(deployment)));
      expect(targets.map((deployment) => deployment.metadata.name), `Service ${service.metadata.name}`).toEqual([service.metadata.name]);
      const ports = containerOf(targets[0]!).ports.map((port: Json) => port.name);
      for (const port of service.spec.ports) expect(ports, `Service ${service.metadata.name} port ${port.name}`).toContain(port.targetPort);
    }
    for (const pdb of all("PodDisruptionBudget")) {
      const targets = deployments.filter((deployment) => selects(pdb.spec.selector.matchLabels, podLabels(deployment)));
      expect(targets.map((deployment) => deployment.metadata.name), `PodDisruptionBudget ${pdb.metadata.name}`).toEqual([pdb.metadata.name]);
    }
    for (const hpa of all("HorizontalPodAutoscaler")) {
      const target = hpa.spec.scaleTargetRef;
      expect(deployments.some((deployment) => target.kind === "Deployment" && deployment.metadata.name === target.name), `HorizontalPodAutoscaler ${hpa.metadata.name}`).toBe(true);
    }
    for (const deployment of deployments) expect(selects(deployment.spec.selector.matchLabels, podLabels(deployment)), deployment.metadata.name).toBe(true);
    for (const ingress of all("Ingress"))
      for (const path of ingress.spec.rules.flatMap((rule: Json) => rule.http.paths)) {
        const backend = path.backend.service;
        expect(named("Service", backend.name)?.spec.ports.map((port: Json) => port.name), `Ingress to ${backend.name}`).toContain(backend.port.name);
      }
  });

  it("every secret and ConfigMap reference names an object and a key the example Secret and the ConfigMaps define", () => {
    const containers = [...applied("Deployment"), ...all("Job")].map((workload) => ({ name: workload.metadata.name, container: containerOf(workload) }));
    for (const { name, container } of containers) {
      for (const from of container.envFrom ?? []) expect(configMapKeys(from.configMapRef.name), `${name} envFrom ${from.configMapRef.name}`).toBeDefined();
      for (const variable of container.env ?? []) {
        const secretRef = variable.valueFrom?.secretKeyRef;
        const configRef = variable.valueFrom?.configMapKeyRef;
        if (secretRef) {
          expect(secretRef.name, `${name} ${variable.name}`).toBe("platform-secrets");
          expect(Object.keys(secretKeys), `${name} ${variable.name}`).toContain(secretRef.key);
          // a required one has a placeholder to replace; an optional one may be left out of the real Secret
          if (secretRef.optional !== true) expect(secretKeys[secretRef.key], `${name} ${variable.name}`).not.toBe("");
        }
        if (configRef) expect(Object.keys(configMapKeys(configRef.name) ?? {}), `${name} ${variable.name}`).toContain(configRef.key);
      }
    }
  });

  it("each container's environment is its compose service's: every variable, the required ones from the Secret, the fixed ones equal", () => {
    const shared = Object.keys(configMapKeys("platform-shared")!);
    for (const [name, service] of services) {
      const env = environment(containerOf(named("Deployment", name)!));
      for (const [variable, value] of Object.entries(service.environment)) {
        const mine = env.get(variable);
        expect(mine, `${name} ${variable}`).toBeDefined();
        // `${X:?…}`: compose refuses to start without it
        if (/^\$\{\w+:\?/.test(value)) expect(mine!.secret?.optional, `${name} ${variable} from a required secret key`).toBe(false);
        else if (!value.includes("${") && !mine!.secret) expect(mine!.value, `${name} ${variable}`).toBe(value);
      }
      // nothing compose does not set, and one Secret for every replica's keys
      for (const variable of env.keys()) expect(Object.keys(service.environment), `${name} ${variable}`).toContain(variable);
      for (const variable of ["DATABASE_URL", "INTERNAL_SECRET", "SIGNING_KEY"]) expect(env.get(variable)?.secret?.optional, `${name} ${variable}`).toBe(false);
      // platform-shared goes to every container: only what compose gives every service
      for (const variable of shared) expect(Object.keys(service.environment), `platform-shared ${variable} for ${name}`).toContain(variable);
    }
  });

  it("each container listens on the ports its environment names, and the URLs between services name a Service's port", () => {
    for (const [name] of services) {
      const container = containerOf(named("Deployment", name)!);
      const env = environment(container);
      const ports = container.ports.map((port: Json) => port.containerPort);
      for (const [variable, { value }] of env)
        if (variable.endsWith("_PORT") || variable === "PORT") expect(ports, `${name} ${variable}`).toContain(Number(value));
      for (const [variable, { value }] of env) {
        const url = value?.match(/^http:\/\/([a-z-]+):(\d+)\//);
        if (!url) continue;
        const target = named("Service", url[1]!);
        expect(target?.spec.ports.map((port: Json) => port.port), `${name} ${variable} ${value}`).toContain(Number(url[2]));
      }
    }
  });

  it("the migrations Job runs npm run migrate's script with DATABASE_URL from the Secret, once", () => {
    const scripts = JSON.parse(read("package.json")).scripts as Record<string, string>;
    const job = named("Job", "platform-migrate")!;
    const container = containerOf(job);
    expect(scripts.migrate).toBe("tsx scripts/migrate.ts");
    expect(container.command).toEqual(["node", "--import", "tsx", "scripts/migrate.ts"]);
    expect(environment(container).get("DATABASE_URL")?.secret).toEqual({ key: "DATABASE_URL", optional: false });
    expect(job.spec.template.spec.restartPolicy).toBe("Never");
    expect(job.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
  });
});
