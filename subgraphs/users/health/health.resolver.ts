import { Field, ObjectType, Query, Resolver } from "type-graphql";
import { appError } from "../../../lib/errors/app-error.ts";
import type { UsersServices } from "../services.ts";

@ObjectType()
export class Health {
  @Field(() => String)
  status!: string;

  @Field(() => String)
  database!: string;
}

@Resolver(() => Health)
export class HealthResolver {
  constructor(private readonly services: UsersServices) {}

  @Query(() => Health, { description: "Liveness: answers only while the database does." })
  async health(): Promise<Health> {
    try {
      await this.services.db.$queryRawUnsafe("SELECT 1");
    } catch (error) {
      throw appError("GEN-503-001", "The database is unavailable.", { cause: error });
    }
    return { status: "ok", database: "ok" };
  }
}
