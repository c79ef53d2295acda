-- Issue 9 (fuzzer): an ON CONFLICT target names a unique index when it has as many terms as the index has key
-- columns and each key column is among them (sqlite3UpsertAnalyzeTarget): (c0, c1) names an index on (c1, c1).
CREATE TABLE t0(c0, c1)
----
CREATE UNIQUE INDEX i0 ON t0(c1, c1)
----
INSERT INTO t0 VALUES (1, 'a') ON CONFLICT(c0, c1) DO NOTHING
----
INSERT INTO t0 VALUES (2, 'a') ON CONFLICT(c0, c1) DO UPDATE SET c0 = excluded.c0 * 10
----
SELECT * FROM t0
----
INSERT INTO t0 VALUES (3, 'a') ON CONFLICT(c0) DO NOTHING
----
CREATE TABLE t1(c0 UNIQUE, c1, PRIMARY KEY (c1)) WITHOUT ROWID
----
CREATE UNIQUE INDEX i1 ON t1(c1, c1)
----
INSERT INTO t1 VALUES (7, 16) ON CONFLICT(c0, c1) DO NOTHING
----
INSERT INTO t1 VALUES (8, 16) ON CONFLICT(c0, c1) DO NOTHING
----
SELECT * FROM t1
