import type { Config } from "../../../lib/config.ts";
import type { Assistant } from "./assistant.ts";
import { OfflineAssistant } from "./offline-assistant.ts";

/**
 * The configured model (LLM_BASE_URL), else the built-in offline assistant. The OpenAI client
 * loads on the first chat turn, so a platform without a model never loads it (start-up time and
 * memory: issue 15).
 */
export function assistantFor(config: Pick<Config, "llm">): Assistant {
  const llm = config.llm;
  if (!llm) return new OfflineAssistant();
  let loaded: Promise<Assistant> | undefined;
  return {
    async next(history, tools, now) {
      loaded ??= import("./openai-assistant.ts").then(({ OpenAiCompatibleAssistant }) => new OpenAiCompatibleAssistant(llm));
      return (await loaded).next(history, tools, now);
    },
  };
}
