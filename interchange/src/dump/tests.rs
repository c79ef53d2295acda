//! Dump translation on small inputs (the real dumps are checked end to
//! end in the server's interchange tests).

use super::*;
use crate::{Mode as ImportMode, Spec};

fn units(dialect: Dialect, text: &str) -> Result<(Vec<Unit>, Report)> {
    let spec = Spec {
        format: match dialect {
            Dialect::Mysql => crate::Format::Mysql,
            Dialect::Postgres => crate::Format::Postgresql,
        },
        original_name: None,
        target_table: None,
        mode: ImportMode::Append,
        options: Default::default(),
    };
    let mut r =
        DumpReader::open(dialect, &spec, Box::new(std::io::Cursor::new(text.as_bytes().to_vec())))?;
    let mut out = Vec::new();
    while let Some(u) = r.next_unit() {
        out.push(u?);
    }
    Ok((out, r.report()))
}

fn sqls(us: &[Unit]) -> Vec<String> {
    us.iter()
        .map(|u| match &u.body {
            Body::Sql(s) => s.clone(),
            Body::Rows(b) => format!("ROWS {} {}", b.insert.table, b.insert.rows.len()),
        })
        .collect()
}

#[test]
fn pg_constraints_after_the_data_are_folded() {
    let dump = "SET x = 1;\nCREATE TABLE public.t (\n    id integer NOT NULL,\n    name text,\n    ok boolean\n);\n\
        CREATE SEQUENCE public.t_id_seq START WITH 1;\n\
        ALTER TABLE ONLY public.t ALTER COLUMN id SET DEFAULT nextval('public.t_id_seq'::regclass);\n\
        COPY public.t (id, name, ok) FROM stdin;\n1\ta\\tb\tt\n2\t\\N\tf\n\\.\n\
        SELECT pg_catalog.setval('public.t_id_seq', 2, true);\n\
        ALTER TABLE ONLY public.t\n    ADD CONSTRAINT t_pkey PRIMARY KEY (id);\n\
        CREATE INDEX t_name ON public.t USING btree (name);\n";
    let (us, report) = units(Dialect::Postgres, dump).unwrap();
    let s = sqls(&us);
    assert!(s[0].contains("\"id\" INTEGER PRIMARY KEY NOT NULL"), "{s:?}");
    assert_eq!(s[1], "ROWS t 2");
    assert_eq!(s[2], "CREATE INDEX \"t_name\" ON \"t\" (\"name\")");
    let Body::Rows(b) = &us[1].body else { panic!() };
    // COPY gives text: the column affinity makes "1" an integer.
    assert_eq!(
        b.insert.rows[0],
        vec![Value::Text("1".into()), Value::Text("a\tb".into()), Value::Integer(1)]
    );
    assert_eq!(b.insert.rows[1][1], Value::Null);
    assert_eq!(b.lines, vec![10, 11]);
    let kinds: Vec<&str> = report.skipped.iter().map(|s| s.kind.as_str()).collect();
    assert!(kinds.contains(&"SET"), "{kinds:?}");
    assert!(kinds.contains(&"CREATE SEQUENCE"), "{kinds:?}");
    assert!(kinds.iter().any(|k| k.starts_with("ALTER TABLE ADD CONSTRAINT")), "{kinds:?}");
}

#[test]
fn mysql_keys_and_extended_inserts() {
    let dump = "/*!40101 SET NAMES utf8mb4 */;\nDROP TABLE IF EXISTS `a`;\nCREATE TABLE `a` (\n  `id` int(11) NOT NULL AUTO_INCREMENT,\n  `s` set('x','y') DEFAULT NULL,\n  `b` blob,\n  PRIMARY KEY (`id`),\n  KEY `k` (`s`(10))\n) ENGINE=InnoDB AUTO_INCREMENT=3;\nLOCK TABLES `a` WRITE;\nINSERT INTO `a` VALUES (1,'x,y','\\0\\n'),\n(2,NULL,_binary 'z');\nUNLOCK TABLES;\n";
    let (us, report) = units(Dialect::Mysql, dump).unwrap();
    let s = sqls(&us);
    assert_eq!(s[0], "DROP TABLE IF EXISTS \"a\"");
    assert!(
        s[1].starts_with("CREATE TABLE \"a\" (\n  \"id\" INTEGER PRIMARY KEY NOT NULL"),
        "{s:?}"
    );
    assert_eq!(s[2], "CREATE INDEX \"k\" ON \"a\" (\"s\")");
    assert_eq!(s[3], "ROWS a 2");
    let Body::Rows(b) = &us[3].body else { panic!() };
    assert_eq!(b.insert.rows[0][2], Value::Blob(vec![0, b'\n']));
    assert_eq!(b.insert.rows[1][2], Value::Blob(b"z".to_vec()));
    assert_eq!(report.skipped.iter().map(|s| s.count).sum::<u64>(), 3);
}

#[test]
fn consecutive_inserts_merge_and_expressions_run_as_sql() {
    let dump = "CREATE TABLE t (a integer, b text);\nINSERT INTO t VALUES (1, 'x');\nINSERT INTO t VALUES (2, 'y');\nINSERT INTO t VALUES (3, upper('z'));\nINSERT INTO t VALUES (4, 'w') ON CONFLICT DO NOTHING;\n";
    let (us, _) = units(Dialect::Postgres, dump).unwrap();
    let s = sqls(&us);
    assert_eq!(s[1], "ROWS t 2");
    assert_eq!(s[2], "INSERT INTO \"t\" VALUES (3, upper('z'))");
    assert_eq!(s[3], "ROWS t 1");
    let Body::Rows(b) = &us[3].body else { panic!() };
    assert_eq!(b.insert.or_action, Some(Conflict::Ignore));
}

#[test]
fn unsupported_and_truncated_input_fails_with_its_line() {
    let e = units(Dialect::Postgres, "SET a = 1;\nFROBNICATE everything;\n").unwrap_err();
    assert_eq!(e.line(), Some(2), "{e}");
    let e = units(Dialect::Postgres, "CREATE TABLE t (a int);\nCOPY t (a) FROM stdin;\n1\n2\n")
        .unwrap_err();
    assert!(e.to_string().contains("COPY"), "{e}");
    let e = units(Dialect::Mysql, "INSERT INTO t VALUES (1,'abc);\n").unwrap_err();
    assert_eq!(e.line(), Some(1), "{e}");
    let e = units(Dialect::Postgres, "ALTER TABLE ONLY other ADD CONSTRAINT x PRIMARY KEY (a);\n")
        .unwrap_err();
    assert!(e.to_string().contains("existing table"), "{e}");
}

#[test]
fn pg_functions_triggers_and_grants_are_skipped_and_counted() {
    let dump = "CREATE FUNCTION public.f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  RETURN NEW; -- ;\nEND;\n$$;\nALTER FUNCTION public.f() OWNER TO me;\nCREATE TRIGGER tr BEFORE INSERT ON public.t FOR EACH ROW EXECUTE FUNCTION public.f();\nGRANT ALL ON TABLE public.t TO me;\nCOMMENT ON TABLE public.t IS 'x';\n\\connect other\n";
    let (us, report) = units(Dialect::Postgres, dump).unwrap();
    assert!(us.is_empty());
    let kinds: Vec<(String, u64)> =
        report.skipped.iter().map(|s| (s.kind.clone(), s.first_line)).collect();
    assert!(kinds.contains(&("CREATE FUNCTION".into(), 1)), "{kinds:?}");
    assert!(kinds.contains(&("ALTER FUNCTION".into(), 6)), "{kinds:?}");
    assert!(kinds.contains(&("CREATE TRIGGER".into(), 7)), "{kinds:?}");
    assert!(kinds.contains(&("GRANT".into(), 8)), "{kinds:?}");
    assert!(kinds.contains(&("psql meta-command \\connect".into(), 10)), "{kinds:?}");
}
