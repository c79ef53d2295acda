# Column affinity, storage classes, comparison affinity, arithmetic edge
# cases.

statement ok
CREATE TABLE t(i INTEGER, r REAL, tx TEXT, n NUMERIC, b BLOB, none)

statement ok
INSERT INTO t VALUES ('12', '3', 45, '6.0', '7', '8')

query
SELECT typeof(i), typeof(r), typeof(tx), typeof(n), typeof(b), typeof(none) FROM t
----
integer|real|text|integer|text|text

query
SELECT i, r, tx, n, b, none FROM t
----
12|3.0|45|6|7|8

statement ok
INSERT INTO t VALUES ('abc', 'x', 1.5, '1e3', X'01', 2.5)

query
SELECT typeof(i), typeof(r), typeof(tx), typeof(n), typeof(b), typeof(none) FROM t WHERE rowid = 2
----
text|text|text|integer|blob|real

query
SELECT count(*) FROM t WHERE i = '12'
----
1

query
SELECT count(*) FROM t WHERE tx = 45
----
1

query
SELECT count(*) FROM t WHERE none = 8
----
0

query
SELECT count(*) FROM t WHERE none = '8'
----
1

query
SELECT 9223372036854775807 + 1, -9223372036854775808 - 1, 5 / 0, 5 % 0, 5.0 / 2
----
9.2233720368547758e+18|-9.2233720368547758e+18|NULL|NULL|2.5

query
SELECT 1 < 'a', 'a' < X'00', 2 < 10, '2' < '10', 1.5 = 1.5, 3 = 3.0
----
1|1|1|0|1|1

query
SELECT typeof(1), typeof(1.0), typeof('1'), typeof(X'01'), typeof(NULL), typeof(1 + 1.0), typeof(4 / 2)
----
integer|real|text|blob|null|real|integer

query
SELECT '3' + 4, '3.5' * 2, 'abc' + 1, -'2'
----
7|7.0|1|-2

query
SELECT 1e3, 1.5e-1, X'0aff'
----
1000.0|0.15|x'0aff'

query
SELECT 10 & 6, 10 | 6, ~5, 1 << 4, 256 >> 2
----
2|14|-6|16|64
