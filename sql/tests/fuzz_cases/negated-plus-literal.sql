-- A minus sees through unary pluses to a literal, as SQLite: -(+(0.0)) is
-- -0.0 and -(+(9223372036854775808)) the smallest integer; on anything
-- else it is 0 - x.
CREATE TABLE t1(c0)
----
INSERT INTO t1 VALUES (0.0)
----
SELECT -(+(0.0)), -(0.0), -0.0, -(+0.0), +(-0.0), -c0, -(+c0), 0.0 * -1 FROM t1
----
SELECT -(+(9223372036854775808)), typeof(-(+(9223372036854775808))), -(+(+(0.0))), -(+-0.0), - + 0.0, -(+(0.0 COLLATE NOCASE))
----
SELECT -(+(0)), -(+(1.5)), -(+('0.0')), -(+'abc'), -(+NULL), -(+X'01')
