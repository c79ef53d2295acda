INSERT INTO t VALUES ('a\'b;c', "d\"e");
SELECT '\\';