import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The image and the compose services run node itself, so `docker stop`'s SIGTERM reaches the
// graceful stop (through npm it reached a shell that did not pass it on, issue 32), and each runs
// what its package.json script runs, so the two cannot drift apart.
const root = join(import.meta.dirname, "..", "..");
const read = (file: string) => readFileSync(join(root, file), "utf8");
const scripts = JSON.parse(read("package.json")).scripts as Record<string, string>;

describe("container commands", () => {
  it("the Dockerfile's CMD is npm start's script, run by node", () => {
    const cmd = JSON.parse(read("Dockerfile").match(/^CMD (.*)$/m)![1]!) as string[];
    expect(cmd[0]).toBe("node");
    expect(cmd.join(" ")).toBe(scripts.start);
  });

  it("every docker-compose.yml command is its service's start:<service> script, run by node", () => {
    const text = read("docker-compose.yml");
    const services = text.slice(text.indexOf("\nservices:\n"), text.indexOf("\nvolumes:\n")).split(/\n(?=  [a-z][\w-]*:\n)/).slice(1);
    const commands = services.flatMap((block) => {
      const command = block.match(/^ {4}command: (.*)$/m)?.[1];
      return command ? [[block.match(/^ {2}([a-z][\w-]*):/)![1]!, JSON.parse(command) as string[]] as const] : [];
    });
    expect(commands.map(([service]) => service)).toEqual(["users", "finance", "identity", "agents", "gateway", "adapter"]);
    for (const [service, command] of commands) {
      expect(command[0], service).toBe("node");
      expect(command.join(" "), service).toBe(scripts[`start:${service}`]);
    }
    expect(text).not.toMatch(/command: \["npm"/);
  });
});
