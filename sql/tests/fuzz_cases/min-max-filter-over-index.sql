-- min()/max() with FILTER over an index on the column: the first index
-- entry need not pass the FILTER (found by the fuzzer, seed-18ee229fe5571fb7).
CREATE TABLE t1(c1 NUMERIC, c4 INTEGER)
----
INSERT INTO t1 VALUES (X'', 2), ('ABC', 'a'), (3, 'b'), (0, 'abc'), (2, 8), (9223372036854775806, 8)
----
CREATE INDEX i1 ON t1(c1, c4)
----
SELECT min(c1) FILTER (WHERE c4 BETWEEN 1 AND 1e3) FROM t1
----
SELECT max(c1) FILTER (WHERE c4 BETWEEN 1 AND 1e3) FROM t1
----
SELECT min(c1) FILTER (WHERE c4 > 5) FROM t1
