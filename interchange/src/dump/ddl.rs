//! DDL translation: MySQL and PostgreSQL `CREATE TABLE`, constraints,
//! types and defaults into our dialect (SQLite's).
//!
//! Types map to names with the SQLite affinity of the source type:
//! integer types → INTEGER; `numeric`/`decimal(p,s)` keep their name
//! (NUMERIC affinity); floating types → REAL; character types keep
//! `VARCHAR(n)`/`CHAR(n)`/`TEXT`; `boolean` → BOOLEAN (values 1/0);
//! binary types → BLOB; dates and times keep their name (NUMERIC
//! affinity, text values stay text); `ENUM`/`SET` and PostgreSQL enum
//! types → TEXT with a CHECK of the allowed values; domains → their base
//! type; arrays, `json(b)`, `uuid`, network and geometric types → TEXT.
//!
//! Keys: a single-column integer PRIMARY KEY becomes `INTEGER PRIMARY
//! KEY` (the rowid, as SQLite does), which is where AUTO_INCREMENT,
//! SERIAL, IDENTITY and `nextval()` defaults go: the next id is one past
//! the largest, like the source's sequence after a dump. A sequence on
//! any other column is dropped (the dump carries every value) and noted.

use super::lex::{StrKind, Tok, Token};
use super::sql::{Cur, Render, bits_value, column_names, literal, literal_hex, split_commas};
use crate::error::unsupported;
use crate::{Result, quote_ident};

/// How values of a column are converted from dump literals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cat {
    /// `t`/`f`, `true`/`false` → 1/0.
    Bool,
    /// Byte strings: PostgreSQL `\x…` hex → BLOB, MySQL strings → BLOB.
    Bytes,
    Other,
}

/// A translated column type.
#[derive(Clone, Debug)]
pub struct Type {
    pub decl: String,
    pub cat: Cat,
    pub integer: bool,
    /// Allowed values (ENUM) → a CHECK.
    pub enum_values: Option<Vec<String>>,
    /// SET members → a CHECK.
    pub set_values: Option<Vec<String>>,
    /// SERIAL types: a sequence comes with them.
    pub serial: bool,
    pub note: Option<String>,
}

impl Type {
    fn new(decl: &str, cat: Cat) -> Type {
        Type {
            decl: decl.into(),
            cat,
            integer: false,
            enum_values: None,
            set_values: None,
            serial: false,
            note: None,
        }
    }
}

/// What the translators know about user types.
pub trait Types {
    /// A PostgreSQL enum type's labels.
    fn enum_labels(&self, name: &str) -> Option<Vec<String>>;
    /// A domain's base type tokens.
    fn domain_base(&self, name: &str) -> Option<Vec<Token>>;
}

/// Words that end a type and start a column constraint.
const CONSTRAINT_WORDS: [&str; 20] = [
    "NOT",
    "NULL",
    "DEFAULT",
    "PRIMARY",
    "UNIQUE",
    "CHECK",
    "REFERENCES",
    "CONSTRAINT",
    "GENERATED",
    "AS",
    "AUTO_INCREMENT",
    "COMMENT",
    "COLLATE",
    "CHARSET",
    "ON",
    "INVISIBLE",
    "VISIBLE",
    "STORAGE",
    "COLUMN_FORMAT",
    "SRID",
];

/// The tokens of a column's type, consumed from `c`.
pub fn type_tokens<'a>(c: &mut Cur<'a>) -> &'a [Token] {
    let start = c.i;
    while let Some(t) = c.peek() {
        if t.is_sym("(") {
            c.group();
            continue;
        }
        if t.is_sym("[") || t.is_sym("]") || t.is_sym(".") {
            c.i += 1;
            continue;
        }
        if CONSTRAINT_WORDS.iter().any(|w| t.is(w)) {
            break;
        }
        if t.is("CHARACTER") && c.peek_at(1).is_some_and(|n| n.is("SET")) {
            break;
        }
        if t.name().is_none() {
            break;
        }
        c.i += 1;
    }
    &c.t[start..c.i]
}

/// Translates a type.
pub fn map_type(t: &[Token], types: &dyn Types, line: u64) -> Result<Type> {
    let words: Vec<String> =
        t.iter().filter_map(|x| x.name().map(str::to_ascii_lowercase)).collect();
    let Some(first) = words.first() else {
        // SQLite-style typeless column.
        return Ok(Type::new("", Cat::Other));
    };
    let mut cur = Cur::new(t);
    // The first parenthesized group: length, precision, or enum labels.
    let mut args: Option<&[Token]> = None;
    while let Some(x) = cur.peek() {
        if x.is_sym("(") {
            args = cur.group();
            break;
        }
        cur.i += 1;
    }
    let array = t.iter().any(|x| x.is_sym("[")) || words.iter().any(|w| w == "array");
    let args_text = args.map(|a| {
        let parts: Vec<String> = split_commas(a)
            .iter()
            .map(|p| {
                p.iter()
                    .map(|x| match &x.tok {
                        Tok::Num(n) => n.clone(),
                        other => format!("{other:?}"),
                    })
                    .collect::<String>()
            })
            .collect();
        format!("({})", parts.join(","))
    });
    let with_args = |base: &str| match &args_text {
        Some(a) if a.chars().all(|c| c.is_ascii_digit() || c == ',' || c == '(' || c == ')') => {
            format!("{base}{a}")
        }
        _ => base.to_string(),
    };
    if array {
        let mut ty = Type::new("TEXT", Cat::Other);
        ty.note = Some("array columns are stored as their text form".into());
        return Ok(ty);
    }
    // The last part of a qualified name is the type's own name.
    let name = t
        .iter()
        .take_while(|x| !x.is_sym("("))
        .filter_map(Token::name)
        .last()
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    let qualified = t.iter().any(|x| x.is_sym("."));
    let base = if qualified { name.as_str() } else { first.as_str() };
    let int = |decl: &str| {
        let mut ty = Type::new(decl, Cat::Other);
        ty.integer = true;
        ty
    };
    let ty = match base {
        "tinyint" | "smallint" | "mediumint" | "int" | "integer" | "bigint" | "int2" | "int4"
        | "int8" | "middleint" | "int1" | "int3" | "year" | "oid" => int("INTEGER"),
        "serial" | "bigserial" | "smallserial" | "serial4" | "serial8" | "serial2" => {
            let mut ty = int("INTEGER");
            ty.serial = true;
            ty
        }
        "bool" | "boolean" => Type::new("BOOLEAN", Cat::Bool),
        "decimal" | "numeric" | "dec" | "fixed" => {
            Type::new(&with_args(&base.to_ascii_uppercase()), Cat::Other)
        }
        "float" | "double" | "real" | "float4" | "float8" => Type::new("REAL", Cat::Other),
        "money" => Type::new("TEXT", Cat::Other),
        "char" | "character" | "nchar" | "bpchar" => {
            let varying = words.iter().any(|w| w == "varying");
            Type::new(&with_args(if varying { "VARCHAR" } else { "CHAR" }), Cat::Other)
        }
        "varchar" | "nvarchar" | "varchar2" | "nvarchar2" => {
            Type::new(&with_args("VARCHAR"), Cat::Other)
        }
        "text" | "tinytext" | "mediumtext" | "longtext" | "citext" | "name" | "string" | "clob" => {
            Type::new("TEXT", Cat::Other)
        }
        "binary" | "varbinary" | "blob" | "tinyblob" | "mediumblob" | "longblob" | "bytea" => {
            Type::new("BLOB", Cat::Bytes)
        }
        "bit" if words.iter().any(|w| w == "varying") => Type::new("TEXT", Cat::Other),
        "bit" => int("INTEGER"),
        "varbit" => Type::new("TEXT", Cat::Other),
        "date" => Type::new("DATE", Cat::Other),
        "datetime" => Type::new("DATETIME", Cat::Other),
        "timestamp" | "timestamptz" => {
            let tz =
                base == "timestamptz" || words.windows(2).any(|w| w[0] == "with" && w[1] == "time");
            Type::new(if tz { "TIMESTAMPTZ" } else { "TIMESTAMP" }, Cat::Other)
        }
        "time" | "timetz" => Type::new("TIME", Cat::Other),
        "interval" => Type::new("INTERVAL", Cat::Other),
        "json" | "jsonb" | "xml" | "uuid" | "inet" | "cidr" | "macaddr" | "macaddr8"
        | "tsvector" | "tsquery" | "hstore" | "ltree" | "regclass" | "regtype" | "pg_lsn"
        | "txid_snapshot" | "box" | "circle" | "line" | "lseg" | "path" | "polygon"
        | "int4range" | "int8range" | "numrange" | "tsrange" | "tstzrange" | "daterange" => {
            Type::new("TEXT", Cat::Other)
        }
        "point" if t.first().is_some_and(|_| args.is_none()) => Type::new("TEXT", Cat::Other),
        "geometry" | "geometrycollection" | "linestring" | "multipoint" | "multilinestring"
        | "multipolygon" => Type::new("BLOB", Cat::Bytes),
        "enum" | "set" => {
            let labels: Vec<String> = args
                .map(|a| {
                    split_commas(a)
                        .iter()
                        .filter_map(|p| match p.first().map(|x| &x.tok) {
                            Some(Tok::Str(b, _)) => Some(String::from_utf8_lossy(b).into_owned()),
                            _ => None,
                        })
                        .collect()
                })
                .unwrap_or_default();
            let mut ty = Type::new("TEXT", Cat::Other);
            if base == "enum" {
                ty.enum_values = Some(labels);
            } else {
                ty.set_values = Some(labels);
            }
            ty
        }
        other => {
            if let Some(labels) = types.enum_labels(other) {
                let mut ty = Type::new("TEXT", Cat::Other);
                ty.enum_values = Some(labels);
                ty
            } else if let Some(base) = types.domain_base(other) {
                return map_type(&base, types, line);
            } else if qualified || words.len() == 1 {
                let mut ty = Type::new("TEXT", Cat::Other);
                ty.note =
                    Some(format!("type {other} is not known here: its values are stored as text"));
                ty
            } else {
                return Err(unsupported!(line, "column type {}", words.join(" ")));
            }
        }
    };
    Ok(ty)
}

/// A table-level constraint or key.
#[derive(Clone, Debug)]
pub enum Constraint {
    Primary(Vec<String>),
    Unique(Vec<String>),
    Foreign {
        cols: Vec<String>,
        table: String,
        ref_cols: Vec<String>,
        tail: String,
    },
    Check(String),
    /// A MySQL KEY / INDEX / FULLTEXT / SPATIAL key: a separate index.
    Index {
        unique: bool,
        cols: Vec<String>,
        kind: &'static str,
    },
}

#[derive(Clone, Debug)]
pub struct Named {
    pub name: Option<String>,
    pub c: Constraint,
}

/// A column being translated.
#[derive(Clone, Debug)]
pub struct ColumnDef {
    pub name: String,
    pub ty: Type,
    pub not_null: bool,
    pub primary: bool,
    pub unique: bool,
    pub default: Option<String>,
    pub serial: bool,
    pub checks: Vec<String>,
    pub references: Option<String>,
    pub generated: Option<String>,
}

/// Parses a constraint (`t` is one for which [`starts_constraint`]
/// holds): `[CONSTRAINT name] PRIMARY KEY …` and friends. `Ok(None)`: a
/// constraint dropped on purpose, its kind added to `skipped`; `Err`: one
/// we cannot translate.
pub fn parse_constraint(
    t: &[Token],
    r: &Render<'_>,
    skipped: &mut Vec<&'static str>,
) -> Result<Option<Named>> {
    let mut c = Cur::new(t);
    let line = c.line();
    let mut name = None;
    if c.eat("CONSTRAINT")
        && c.peek().is_some_and(|x| x.name().is_some() && !is_constraint_start(x))
    {
        name = c.take().and_then(Token::name).map(str::to_string);
    }
    let Some(first) = c.peek() else { return Ok(None) };
    let con = if c.eat_all(&["PRIMARY", "KEY"]) {
        skip_index_words(&mut c);
        let cols = c.group().map(column_names).unwrap_or_default();
        Constraint::Primary(cols)
    } else if c.eat("UNIQUE") {
        let _ = c.eat("KEY") || c.eat("INDEX");
        // MySQL: an index name may come first.
        let index_name = if c.peek().is_some_and(|x| x.name().is_some() && !x.is("USING")) {
            c.take().and_then(Token::name).map(str::to_string)
        } else {
            None
        };
        skip_index_words(&mut c);
        let cols = c.group().map(column_names).unwrap_or_default();
        if r.mysql {
            name = name.or(index_name);
            Constraint::Index { unique: true, cols, kind: "UNIQUE KEY" }
        } else {
            Constraint::Unique(cols)
        }
    } else if c.eat_all(&["FOREIGN", "KEY"]) {
        if c.peek().is_some_and(|x| x.name().is_some()) {
            c.take(); // MySQL's index name
        }
        let cols = c.group().map(column_names).unwrap_or_default();
        if !c.eat("REFERENCES") {
            return Err(unsupported!(line, "FOREIGN KEY without REFERENCES"));
        }
        let (table, ref_cols, tail) = references(&mut c, r);
        Constraint::Foreign { cols, table, ref_cols, tail }
    } else if c.eat("CHECK") {
        let Some(expr) = c.group() else { return Err(unsupported!(line, "CHECK without (…)")) };
        let text = r.sql(expr);
        if c.eat_all(&["NOT", "VALID"]) {
            skipped.push("CHECK constraint NOT VALID (not checked against old rows in the source)");
            return Ok(None);
        }
        if is_json_valid(expr) {
            skipped.push("CHECK (json_valid(…)) constraint");
            return Ok(None);
        }
        Constraint::Check(text)
    } else if first.is("KEY") || first.is("INDEX") || first.is("FULLTEXT") || first.is("SPATIAL") {
        let kind = if c.eat("FULLTEXT") {
            "FULLTEXT KEY"
        } else if c.eat("SPATIAL") {
            "SPATIAL KEY"
        } else {
            "KEY"
        };
        let _ = c.eat("KEY") || c.eat("INDEX");
        let index_name = if c.peek().is_some_and(|x| x.name().is_some() && !x.is("USING")) {
            c.take().and_then(Token::name).map(str::to_string)
        } else {
            None
        };
        skip_index_words(&mut c);
        let cols = c.group().map(column_names).unwrap_or_default();
        name = index_name;
        Constraint::Index { unique: false, cols, kind }
    } else if first.is("EXCLUDE") {
        skipped.push("EXCLUDE constraint");
        return Ok(None);
    } else {
        return Err(unsupported!(line, "constraint {}", r.sql(&t[..t.len().min(8)])));
    };
    Ok(Some(Named { name, c: con }))
}

fn is_constraint_start(t: &Token) -> bool {
    ["PRIMARY", "UNIQUE", "FOREIGN", "CHECK", "EXCLUDE"].iter().any(|w| t.is(w))
}

/// Constraint starts, for telling a constraint from a column.
pub fn starts_constraint(t: &[Token]) -> bool {
    match t.first() {
        Some(f) if f.is("CONSTRAINT") => true,
        Some(f) if f.is("PRIMARY") || f.is("FOREIGN") || f.is("EXCLUDE") => {
            t.get(1).is_some_and(|n| n.is("KEY") || f.is("EXCLUDE"))
        }
        Some(f) if f.is("UNIQUE") || f.is("CHECK") => t
            .get(1)
            .is_some_and(|n| n.is_sym("(") || n.is("KEY") || n.is("INDEX") || n.name().is_some()),
        Some(f) if f.is("KEY") || f.is("INDEX") || f.is("FULLTEXT") || f.is("SPATIAL") => {
            t.get(1).is_some_and(|n| n.name().is_some() || n.is_sym("("))
        }
        _ => false,
    }
}

/// `USING BTREE` and similar between a key's name and its columns.
fn skip_index_words(c: &mut Cur<'_>) {
    while c.eat("USING") {
        c.take();
    }
}

fn is_json_valid(expr: &[Token]) -> bool {
    expr.first().is_some_and(|t| t.is("json_valid"))
}

/// After `REFERENCES`: table, columns, and the ON/MATCH/DEFERRABLE tail.
fn references(c: &mut Cur<'_>, r: &Render<'_>) -> (String, Vec<String>, String) {
    let table = c.qualified().and_then(|p| p.last().cloned()).unwrap_or_default();
    let ref_cols = c.group().map(column_names).unwrap_or_default();
    let mut tail = Vec::new();
    loop {
        if c.eat("ON") {
            let what = c.take().and_then(Token::name).unwrap_or("").to_ascii_uppercase();
            let action = if c.eat_all(&["NO", "ACTION"]) {
                "NO ACTION"
            } else if c.eat_all(&["SET", "NULL"]) {
                "SET NULL"
            } else if c.eat_all(&["SET", "DEFAULT"]) {
                "SET DEFAULT"
            } else if c.eat("CASCADE") {
                "CASCADE"
            } else if c.eat("RESTRICT") {
                "RESTRICT"
            } else {
                c.take();
                ""
            };
            if !action.is_empty() && (what == "DELETE" || what == "UPDATE") {
                tail.push(format!("ON {what} {action}"));
            }
        } else if c.eat("MATCH") {
            c.take();
        } else if c.eat("DEFERRABLE") {
            tail.push("DEFERRABLE".into());
            if c.eat_all(&["INITIALLY", "DEFERRED"]) {
                tail.push("INITIALLY DEFERRED".into());
            } else if c.eat_all(&["INITIALLY", "IMMEDIATE"]) {
                tail.push("INITIALLY IMMEDIATE".into());
            }
        } else if c.eat_all(&["NOT", "DEFERRABLE"]) || c.eat_all(&["NOT", "VALID"]) {
        } else {
            break;
        }
    }
    let _ = r;
    (table, ref_cols, tail.join(" "))
}

/// The SQL of a REFERENCES clause.
pub fn references_sql(table: &str, ref_cols: &[String], tail: &str) -> String {
    let mut s = format!("REFERENCES {}", quote_ident(table));
    if !ref_cols.is_empty() {
        s.push_str(&format!(" ({})", idents(ref_cols)));
    }
    if !tail.is_empty() {
        s.push(' ');
        s.push_str(tail);
    }
    s
}

pub fn idents(cols: &[String]) -> String {
    cols.iter().map(|c| quote_ident(c)).collect::<Vec<_>>().join(", ")
}

/// What a DEFAULT expression becomes: `None` for no default (NULL, or a
/// sequence, which sets `serial`).
pub fn translate_default(
    t: &[Token],
    r: &Render<'_>,
    serial: &mut bool,
    cat: Cat,
) -> Option<String> {
    let first = t.first()?;
    if t.iter().any(|x| x.is("nextval")) {
        *serial = true;
        return None;
    }
    // Strip casts and surrounding parentheses.
    let text = r.sql(t);
    let bare = text.trim_start_matches('(').trim_end_matches(')').trim();
    let upper = bare.to_ascii_uppercase();
    if upper == "NULL" {
        return None;
    }
    let clock = [
        ("CURRENT_TIMESTAMP", "CURRENT_TIMESTAMP"),
        ("NOW", "CURRENT_TIMESTAMP"),
        ("LOCALTIMESTAMP", "CURRENT_TIMESTAMP"),
        ("STATEMENT_TIMESTAMP", "CURRENT_TIMESTAMP"),
        ("TRANSACTION_TIMESTAMP", "CURRENT_TIMESTAMP"),
        ("CURRENT_DATE", "CURRENT_DATE"),
        ("CURDATE", "CURRENT_DATE"),
        ("CURRENT_TIME", "CURRENT_TIME"),
        ("CURTIME", "CURRENT_TIME"),
        ("LOCALTIME", "CURRENT_TIME"),
    ];
    for (name, ours) in clock {
        if upper == name
            || upper.starts_with(&format!("{name}("))
            || upper.starts_with(&format!("{name} ("))
        {
            return Some(ours.into());
        }
    }
    match upper.as_str() {
        "TRUE" => return Some("1".into()),
        "FALSE" => return Some("0".into()),
        _ => {}
    }
    // One literal, maybe signed.
    let lits: Vec<&Token> = t.iter().filter(|x| !x.is_sym("(") && !x.is_sym(")")).collect();
    let literal_only = match lits.as_slice() {
        [one] => matches!(one.tok, Tok::Str(..) | Tok::Num(_)),
        [sign, n] => (sign.is_sym("-") || sign.is_sym("+")) && matches!(n.tok, Tok::Num(_)),
        [s, _, ..] if s.is_sym("::") => false,
        _ => false,
    };
    let castless_literal =
        matches!(first.tok, Tok::Str(..)) && t.get(1).is_some_and(|x| x.is_sym("::"));
    if literal_only || castless_literal {
        if let Tok::Str(b, StrKind::Plain) = &first.tok {
            if cat == Cat::Bool {
                return Some(bool_text(b).map_or_else(|| literal(b), |v| v.to_string()));
            }
            return Some(literal(b));
        }
        if let Tok::Str(b, StrKind::Hex) = &first.tok {
            return Some(literal_hex(b));
        }
        if let Tok::Str(b, StrKind::Bits) = &first.tok {
            return Some(bits_value(b).to_string());
        }
        return Some(bare.to_string());
    }
    Some(format!("({bare})"))
}

/// PostgreSQL's boolean text (`t`, `true`, `yes`, `on`, `1` …).
pub fn bool_text(b: &[u8]) -> Option<i64> {
    match String::from_utf8_lossy(b).trim().to_ascii_lowercase().as_str() {
        "t" | "true" | "y" | "yes" | "on" | "1" => Some(1),
        "f" | "false" | "n" | "no" | "off" | "0" => Some(0),
        _ => None,
    }
}

/// The CHECK of a MySQL SET column: every comma-separated part is a
/// member (MySQL writes members in definition order, without repeats).
pub fn set_check(col: &str, members: &[String]) -> String {
    let mut e = format!("',' || {} || ','", quote_ident(col));
    for m in members {
        e = format!("replace({e}, {}, ',')", literal(format!(",{m},").as_bytes()));
    }
    format!("trim({e}, ',') = ''")
}

/// The CREATE TABLE text.
pub fn create_table_sql(
    name: &str,
    if_not_exists: bool,
    columns: &[ColumnDef],
    constraints: &[Named],
) -> String {
    let mut items = Vec::new();
    for c in columns {
        let mut s = quote_ident(&c.name);
        if c.primary && c.ty.integer {
            s.push_str(" INTEGER PRIMARY KEY");
        } else {
            if !c.ty.decl.is_empty() {
                s.push(' ');
                s.push_str(&c.ty.decl);
            }
            if c.primary {
                s.push_str(" PRIMARY KEY");
            }
        }
        if c.not_null {
            s.push_str(" NOT NULL");
        }
        if let Some(d) = &c.default {
            s.push_str(" DEFAULT ");
            s.push_str(d);
        }
        if c.unique {
            s.push_str(" UNIQUE");
        }
        if let Some(g) = &c.generated {
            s.push(' ');
            s.push_str(g);
        }
        if let Some(labels) = &c.ty.enum_values {
            let list: Vec<String> = labels.iter().map(|l| literal(l.as_bytes())).collect();
            s.push_str(&format!(" CHECK ({} IN ({}))", quote_ident(&c.name), list.join(", ")));
        }
        if let Some(members) = &c.ty.set_values {
            s.push_str(&format!(" CHECK ({})", set_check(&c.name, members)));
        }
        for ch in &c.checks {
            s.push_str(&format!(" CHECK ({ch})"));
        }
        if let Some(r) = &c.references {
            s.push(' ');
            s.push_str(r);
        }
        items.push(s);
    }
    for n in constraints {
        let prefix =
            n.name.as_ref().map(|x| format!("CONSTRAINT {} ", quote_ident(x))).unwrap_or_default();
        let body = match &n.c {
            Constraint::Primary(cols) => format!("PRIMARY KEY ({})", idents(cols)),
            Constraint::Unique(cols) => format!("UNIQUE ({})", idents(cols)),
            Constraint::Foreign { cols, table, ref_cols, tail } => {
                format!("FOREIGN KEY ({}) {}", idents(cols), references_sql(table, ref_cols, tail))
            }
            Constraint::Check(e) => format!("CHECK ({e})"),
            Constraint::Index { .. } => continue,
        };
        items.push(format!("{prefix}{body}"));
    }
    format!(
        "CREATE TABLE {}{} (\n  {}\n)",
        if if_not_exists { "IF NOT EXISTS " } else { "" },
        quote_ident(name),
        items.join(",\n  ")
    )
}

/// Parses one column definition (`t` starts with its name).
pub fn parse_column(
    t: &[Token],
    r: &Render<'_>,
    types: &dyn Types,
    skipped: &mut Vec<&'static str>,
) -> Result<ColumnDef> {
    let mut c = Cur::new(t);
    let line = c.line();
    let name =
        c.take().and_then(Token::name).map(str::to_string).ok_or_else(|| {
            unsupported!(line, "a column definition without a name: {}", r.sql(t))
        })?;
    let ty_tokens = type_tokens(&mut c);
    let ty = map_type(ty_tokens, types, line)?;
    let mut col = ColumnDef {
        name,
        serial: ty.serial,
        ty,
        not_null: false,
        primary: false,
        unique: false,
        default: None,
        checks: Vec::new(),
        references: None,
        generated: None,
    };
    // MySQL type modifiers after the type.
    while let Some(x) = c.peek() {
        if x.is("UNSIGNED")
            || x.is("SIGNED")
            || x.is("ZEROFILL")
            || x.is("BINARY")
            || x.is("ASCII")
            || x.is("UNICODE")
        {
            c.i += 1;
        } else {
            break;
        }
    }
    while let Some(x) = c.peek() {
        let line = x.line;
        if c.eat_all(&["NOT", "NULL"]) {
            col.not_null = true;
        } else if c.eat("NULL") {
        } else if c.eat("DEFAULT") {
            let expr = c.until(|t| {
                CONSTRAINT_WORDS.iter().any(|w| t.is(w)) && !t.is("NULL") && !t.is("ON")
            });
            // `DEFAULT NULL` is caught by until() stopping at nothing:
            let expr = if expr.is_empty() && c.peek().is_some_and(|t| t.is("NULL")) {
                c.take();
                &[][..]
            } else {
                expr
            };
            let mut serial = false;
            col.default = translate_default(expr, r, &mut serial, col.ty.cat);
            col.serial |= serial;
        } else if c.eat("AUTO_INCREMENT") {
            col.serial = true;
        } else if c.eat_all(&["PRIMARY", "KEY"]) {
            col.primary = true;
        } else if c.eat("UNIQUE") {
            let _ = c.eat("KEY");
            col.unique = true;
        } else if c.eat("CONSTRAINT") {
            if c.peek().is_some_and(|n| {
                n.name().is_some()
                    && !is_constraint_start(n)
                    && !n.is("NOT")
                    && !n.is("NULL")
                    && !n.is("DEFAULT")
                    && !n.is("REFERENCES")
            }) {
                c.take();
            }
        } else if c.eat("CHECK") {
            let expr = c.group().unwrap_or(&[]);
            if is_json_valid(expr) {
                skipped.push("CHECK (json_valid(…)) constraint");
            } else {
                col.checks.push(r.sql(expr));
            }
        } else if c.eat("REFERENCES") {
            let (table, ref_cols, tail) = references(&mut c, r);
            col.references = Some(references_sql(&table, &ref_cols, &tail));
        } else if c.eat("COLLATE")
            || c.eat_all(&["CHARACTER", "SET"])
            || c.eat("CHARSET")
            || c.eat("COMMENT")
        {
            c.take();
        } else if c.eat_all(&["ON", "UPDATE"]) {
            c.until(|t| CONSTRAINT_WORDS.iter().any(|w| t.is(w)) && !t.is("ON"));
            skipped.push("ON UPDATE clause of a column (MySQL's automatic update)");
        } else if c.eat("GENERATED") {
            // PostgreSQL identity, or a generated column.
            let _ = c.eat("ALWAYS") || c.eat_all(&["BY", "DEFAULT"]);
            if c.eat("AS") {
                if c.eat("IDENTITY") {
                    c.group();
                    col.serial = true;
                } else {
                    let expr = c.group().unwrap_or(&[]);
                    let stored = c.eat("STORED") || c.eat("PERSISTENT");
                    let _ = c.eat("VIRTUAL");
                    col.generated = Some(format!(
                        "GENERATED ALWAYS AS ({}) {}",
                        r.sql(expr),
                        if stored { "STORED" } else { "VIRTUAL" }
                    ));
                }
            }
        } else if c.eat("AS") {
            // MySQL shorthand for a generated column.
            let expr = c.group().unwrap_or(&[]);
            let stored = c.eat("STORED") || c.eat("PERSISTENT");
            let _ = c.eat("VIRTUAL");
            col.generated = Some(format!(
                "GENERATED ALWAYS AS ({}) {}",
                r.sql(expr),
                if stored { "STORED" } else { "VIRTUAL" }
            ));
        } else if c.eat("INVISIBLE") || c.eat("VISIBLE") {
        } else if c.eat("STORAGE") || c.eat("COLUMN_FORMAT") || c.eat("SRID") {
            c.take();
        } else {
            return Err(unsupported!(
                line,
                "column {} of this table: {}",
                col.name,
                r.sql(&t[c.i..t.len().min(c.i + 8)])
            ));
        }
    }
    Ok(col)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::dump::Dialect;
    use crate::dump::lex::Lexer;

    struct NoTypes;
    impl Types for NoTypes {
        fn enum_labels(&self, _: &str) -> Option<Vec<String>> {
            None
        }
        fn domain_base(&self, _: &str) -> Option<Vec<Token>> {
            None
        }
    }

    fn lex(s: &str, d: Dialect) -> Vec<Token> {
        let mut l = Lexer::new(s.as_bytes(), d);
        let mut v = Vec::new();
        while let Some(t) = l.next_token().unwrap() {
            v.push(t);
        }
        v
    }

    fn col(s: &str, d: Dialect) -> ColumnDef {
        let schemas: HashSet<String> = ["public".to_string()].into();
        let r = Render { schemas: &schemas, mysql: d == Dialect::Mysql };
        parse_column(&lex(s, d), &r, &NoTypes, &mut Vec::new()).unwrap()
    }

    #[test]
    fn mysql_columns() {
        let c = col("`id` int(11) unsigned NOT NULL AUTO_INCREMENT", Dialect::Mysql);
        assert!(c.serial && c.not_null && c.ty.integer);
        let c = col(
            "`name` varchar(160) CHARACTER SET utf8mb3 COLLATE utf8mb3_general_ci DEFAULT NULL",
            Dialect::Mysql,
        );
        assert_eq!((c.ty.decl.as_str(), c.default.as_deref()), ("VARCHAR(160)", None));
        let c = col(
            "`t` timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp()",
            Dialect::Mysql,
        );
        assert_eq!(c.default.as_deref(), Some("CURRENT_TIMESTAMP"));
        let c = col("`e` enum('a','b''c') DEFAULT 'a'", Dialect::Mysql);
        assert_eq!(c.ty.enum_values, Some(vec!["a".to_string(), "b'c".to_string()]));
        let c = col("`p` decimal(10,2) NOT NULL DEFAULT 0.00", Dialect::Mysql);
        assert_eq!((c.ty.decl.as_str(), c.default.as_deref()), ("DECIMAL(10,2)", Some("0.00")));
        let c = col("`g` int(11) GENERATED ALWAYS AS (`a` + 1) STORED", Dialect::Mysql);
        assert_eq!(c.generated.as_deref(), Some("GENERATED ALWAYS AS (\"a\" + 1) STORED"));
        let c = col("`b` bit(1) DEFAULT b'1'", Dialect::Mysql);
        assert_eq!(c.default.as_deref(), Some("1"));
    }

    #[test]
    fn postgres_columns() {
        let c = col(
            "id integer DEFAULT nextval('public.t_id_seq'::regclass) NOT NULL",
            Dialect::Postgres,
        );
        assert!(c.serial && c.not_null && c.default.is_none());
        let c = col("name character varying(40) DEFAULT 'x'::character varying", Dialect::Postgres);
        assert_eq!((c.ty.decl.as_str(), c.default.as_deref()), ("VARCHAR(40)", Some("'x'")));
        let c = col("at timestamp without time zone DEFAULT now()", Dialect::Postgres);
        assert_eq!(
            (c.ty.decl.as_str(), c.default.as_deref()),
            ("TIMESTAMP", Some("CURRENT_TIMESTAMP"))
        );
        let c = col("ok boolean DEFAULT false NOT NULL", Dialect::Postgres);
        assert_eq!((c.ty.cat, c.default.as_deref()), (Cat::Bool, Some("0")));
        let c = col("tags text[]", Dialect::Postgres);
        assert_eq!(c.ty.decl, "TEXT");
        let c = col(
            "id bigint GENERATED ALWAYS AS IDENTITY (START WITH 1 INCREMENT BY 1)",
            Dialect::Postgres,
        );
        assert!(c.serial);
        let c = col("n numeric(12,4)", Dialect::Postgres);
        assert_eq!(c.ty.decl, "NUMERIC(12,4)");
        let c = col("b bytea", Dialect::Postgres);
        assert_eq!(c.ty.cat, Cat::Bytes);
    }

    #[test]
    fn set_checks_accept_members_only() {
        let db = rusqlite::Connection::open_in_memory().unwrap();
        let check = set_check("s", &["a".into(), "b".into(), "c d".into()]);
        for (v, ok) in
            [("", true), ("a", true), ("a,c d", true), ("b,a", true), ("x", false), ("a,x", false)]
        {
            let got: bool = db
                .query_row(&format!("SELECT {} FROM (SELECT ?1 AS s)", check), [v], |r| r.get(0))
                .unwrap();
            assert_eq!(got, ok, "{v:?}");
        }
    }
}
