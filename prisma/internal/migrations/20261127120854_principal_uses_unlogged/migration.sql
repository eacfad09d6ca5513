-- Every internal request inserts a row here (lib/auth/replay-store.ts), and each row matters for
-- 15 s: written to the WAL, each insert's commit would wait for a disk flush on the hot path.
-- Unlogged, a crash or a failover empties the table: principals issued in the 15 s before could
-- then be replayed once more at another replica, a window far shorter than the outage.
ALTER TABLE "internal"."principal_uses" SET UNLOGGED;
