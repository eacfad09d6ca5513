import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { AgentsServices } from "../services.ts";
import { AgentsUser } from "../types/user.ts";
import { CreateWidgetInput, UpdateWidgetInput, Widget } from "../types/widget.ts";
import { widgetDataRequest } from "./widget-settings.ts";
import { createWidget, deleteWidget, getWidget, listWidgets, updateWidget, type WidgetView } from "./widgets.ts";

@Resolver(() => Widget)
export class WidgetResolver {
  constructor(private readonly services: AgentsServices) {}

  @Query(() => [Widget], { description: "The user's dashboard widgets, top to bottom, left to right." })
  widgets(@Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listWidgets(this.services.db, requireUser(ctx.principal, "read").user_id);
  }

  @Query(() => Widget)
  widget(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return getWidget(this.services.db, requireUser(ctx.principal, "read").user_id, id);
  }

  @Mutation(() => Widget, { description: "Adds a widget to the dashboard." })
  create_widget(
    @Arg("input", () => CreateWidgetInput) input: CreateWidgetInput,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return createWidget(this.services.db, requireUser(ctx.principal, "write").user_id, { type: input.type, title: input.title ?? null, position: { ...input.position }, settings: input.settings ?? null });
  }

  @Mutation(() => Widget, { description: "Moves, renames or re-sets a widget." })
  update_widget(
    @Arg("id", () => ID) id: string,
    @Arg("input", () => UpdateWidgetInput) input: UpdateWidgetInput,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return updateWidget(this.services.db, requireUser(ctx.principal, "write").user_id, id, { position: input.position && { ...input.position }, settings: input.settings ?? null, ...(input.title != null && { title: input.title }) });
  }

  @Mutation(() => Widget, { description: "Removes a widget; answers it as it was." })
  delete_widget(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return deleteWidget(this.services.db, requireUser(ctx.principal, "write").user_id, id);
  }

  @FieldResolver(() => String)
  data_request(@Root() widget: WidgetView): string {
    return widgetDataRequest(widget.type, widget.settings);
  }
}

@Resolver(() => AgentsUser)
export class UserWidgetsResolver {
  constructor(private readonly services: AgentsServices) {}

  @FieldResolver(() => [Widget], { description: "The user's dashboard widgets." })
  widgets(@Root() user: AgentsUser, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    const { user_id } = requireUser(ctx.principal, "read");
    return user_id === user.id ? listWidgets(this.services.db, user_id) : Promise.resolve([]);
  }
}
