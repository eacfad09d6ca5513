import { WIDGET_SETTINGS } from "../../../lib/contracts/widgets.ts";
import { checkJsonAt } from "../../../lib/json-validation.ts";
import type { WidgetType } from "../../../lib/vocabulary/agents.ts";

/** The settings checked against the type's schema, defaults filled in; 422 at settings.<field> otherwise. */
export function checkWidgetSettings(type: WidgetType, settings: unknown): Record<string, unknown> {
  return checkJsonAt(WIDGET_SETTINGS[type], settings, ["settings"]);
}

/**
 * The REST request that answers a widget's data: the very operation a client would call for it
 * (so the widget shows what the API shows, with the same authorisation).
 */
export function widgetDataRequest(type: WidgetType, settings: Record<string, unknown>): string {
  const query = (entries: Record<string, unknown>) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(entries)) if (value !== undefined && value !== null) search.set(name, String(value));
    const text = search.toString();
    return text ? `?${text}` : "";
  };
  switch (type) {
    case "balance":
      return "/v0/accounts";
    case "transactions":
      return `/v0/transactions${query({ limit: settings.limit ?? 10, type: settings.type, category: settings.category, direction: settings.direction, meta: true })}`;
    case "chat":
      return settings.session_id ? `/v0/chat/sessions/${encodeURIComponent(String(settings.session_id))}/messages` : "/v0/chat/sessions";
    case "budget":
      return settings.budget_id ? `/v0/budgets/${encodeURIComponent(String(settings.budget_id))}` : "/v0/budgets";
  }
}
