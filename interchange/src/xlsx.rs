//! XLSX import (placeholder).
use crate::{Reader, Result, Source, Spec, TableLookup};

pub fn open(
    _spec: &Spec,
    _source: Box<dyn Source>,
    _lookup: TableLookup<'_>,
) -> Result<Box<dyn Reader>> {
    Err(crate::Error::InvalidOption("xlsx is not built yet".into()))
}
