//! Dump readers (placeholder while the dialects are built).
use crate::{Reader, Result, Source, Spec};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Mysql,
    Postgres,
}

pub struct DumpReader;

impl DumpReader {
    pub fn open(_d: Dialect, _spec: &Spec, _source: Box<dyn Source>) -> Result<DumpReader> {
        Err(crate::Error::InvalidOption("dumps are not built yet".into()))
    }
}

impl Reader for DumpReader {
    fn next_unit(&mut self) -> Option<Result<crate::Unit>> {
        None
    }
    fn report(&self) -> crate::Report {
        crate::Report::default()
    }
}
