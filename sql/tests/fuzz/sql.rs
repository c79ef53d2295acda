//! Generated SQL as a tree that knows its simpler forms.
//!
//! A generated statement is rendered from a [`Sql`] tree. Wherever the
//! generator makes a choice that could have been simpler (an expression
//! instead of a literal, a WHERE clause instead of none, a join instead of
//! one table), it records the simpler forms in an [`Sql::Alt`] node. The
//! shrinker then only has to try those replacements: no SQL parser is
//! needed to minimise a failing statement, and every candidate is still
//! well-formed SQL.

/// A piece of SQL text.
#[derive(Clone, Debug)]
pub enum Sql {
    Text(String),
    Cat(Vec<Sql>),
    /// The first form is the one rendered; the others are simpler
    /// replacements for the shrinker.
    Alt(Vec<Sql>),
}

pub fn t(s: impl Into<String>) -> Sql {
    Sql::Text(s.into())
}

pub fn cat(parts: Vec<Sql>) -> Sql {
    Sql::Cat(parts)
}

/// `full`, which the shrinker may replace by any of `simpler`.
pub fn alt(full: Sql, simpler: Vec<Sql>) -> Sql {
    if simpler.is_empty() {
        return full;
    }
    let mut v = vec![full];
    v.extend(simpler);
    Sql::Alt(v)
}

/// `parts` joined by `sep`.
pub fn join(parts: Vec<Sql>, sep: &str) -> Sql {
    let mut out = Vec::with_capacity(parts.len() * 2);
    for (i, p) in parts.into_iter().enumerate() {
        if i > 0 {
            out.push(t(sep));
        }
        out.push(p);
    }
    Sql::Cat(out)
}

impl Sql {
    pub fn render(&self) -> String {
        let mut s = String::new();
        self.render_into(&mut s);
        s
    }

    fn render_into(&self, out: &mut String) {
        match self {
            Sql::Text(s) => out.push_str(s),
            Sql::Cat(v) => v.iter().for_each(|p| p.render_into(out)),
            Sql::Alt(v) => v[0].render_into(out),
        }
    }

    /// Number of `Alt` nodes reachable through rendered forms.
    pub fn alts(&self) -> usize {
        match self {
            Sql::Text(_) => 0,
            Sql::Cat(v) => v.iter().map(Sql::alts).sum(),
            Sql::Alt(v) => 1 + v[0].alts(),
        }
    }

    /// The number of replacements the `k`-th `Alt` (pre-order) offers.
    pub fn choices(&self, k: usize) -> usize {
        let mut k = k;
        self.find(&mut k).map_or(0, |v| v.len() - 1)
    }

    fn find(&self, k: &mut usize) -> Option<&Vec<Sql>> {
        match self {
            Sql::Text(_) => None,
            Sql::Cat(v) => v.iter().find_map(|p| p.find(k)),
            Sql::Alt(v) => {
                if *k == 0 {
                    return Some(v);
                }
                *k -= 1;
                v[0].find(k)
            }
        }
    }

    /// A copy with the `k`-th `Alt` replaced by its simpler form `choice`
    /// (1-based among the replacements).
    pub fn replaced(&self, k: usize, choice: usize) -> Sql {
        let mut k = k as isize;
        self.replace_at(&mut k, choice)
    }

    fn replace_at(&self, k: &mut isize, choice: usize) -> Sql {
        match self {
            Sql::Text(_) => self.clone(),
            Sql::Cat(v) => Sql::Cat(v.iter().map(|p| p.replace_at(k, choice)).collect()),
            Sql::Alt(v) => {
                if *k == 0 {
                    *k = -1;
                    return v[choice].clone();
                }
                if *k > 0 {
                    *k -= 1;
                }
                let mut w = v.clone();
                w[0] = v[0].replace_at(k, choice);
                Sql::Alt(w)
            }
        }
    }
}
