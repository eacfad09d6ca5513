import type { Config } from "../../lib/config.ts";
import type { Assistant } from "./assistant.ts";
import { OfflineAssistant } from "./offline-assistant.ts";
import { OpenAiCompatibleAssistant } from "./openai-assistant.ts";

/** The configured model (LLM_BASE_URL), else the built-in offline assistant. */
export function assistantFor(config: Pick<Config, "llm">): Assistant {
  return config.llm ? new OpenAiCompatibleAssistant(config.llm) : new OfflineAssistant();
}
