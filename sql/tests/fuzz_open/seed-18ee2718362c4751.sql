-- seed 1796416286308976465: OursSucceeded at statement 5 (memory store)
--     sqlite: Err("integer overflow")
--     asadb:  1 rows
--       [Integer(1)]
--   shrunk session:
--     CREATE TABLE t0(c0 FLOAT NOT NULL DEFAULT 0, c1 NUMERIC, c2 INT);
--     CREATE TABLE t1(c0 BLOB, c1 INT DEFAULT 1.5, c2 BLOB, c3 BIGINT, c4 BIGINT);
--     INSERT INTO t1 VALUES (4, '1.5', -3, '10', '[a-c]*'), (1e400, -9223372036854775807, 8, 4294967296, 10), ('y ', 'X', X'00', 9223372036854775807, '[a-c]*'), ('a%', 9223372036854775808, 1, 2, '%b%');
--     UPDATE OR IGNORE t1 SET c2 = CAST(c1 AS INT);
--     CREATE INDEX i3 ON t1(c3, c2 COLLATE NOCASE);
--     SELECT sum(a02.c2) FROM t0 AS a00, t0 AS a01 FULL OUTER JOIN t1 AS a02 ON 0;
CREATE TABLE t0(c0 FLOAT NOT NULL DEFAULT 0, c1 NUMERIC, c2 INT)
----
CREATE TABLE t1(c0 BLOB, c1 INT DEFAULT 1.5, c2 BLOB, c3 BIGINT, c4 BIGINT)
----
INSERT INTO t1 VALUES (4, '1.5', -3, '10', '[a-c]*'), (1e400, -9223372036854775807, 8, 4294967296, 10), ('y ', 'X', X'00', 9223372036854775807, '[a-c]*'), ('a%', 9223372036854775808, 1, 2, '%b%')
----
UPDATE OR IGNORE t1 SET c2 = CAST(c1 AS INT)
----
CREATE INDEX i3 ON t1(c3, c2 COLLATE NOCASE)
----
SELECT sum(a02.c2) FROM t0 AS a00, t0 AS a01 FULL OUTER JOIN t1 AS a02 ON 0
