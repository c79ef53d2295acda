//! JSON paths: lookups and the edits that ride on them (SQLite's
//! `jsonLookupStep`), and RFC 7396 merge patch (`jsonMergePatch`).
//!
//! A path is `$` followed by steps: `.key`, `."quoted key"` (backslash
//! escapes compare by the character they stand for), `[N]`, `[#]` (one
//! past the end, for appends) and `[#-N]` (N from the end). The leading
//! `$` is checked by the callers; [`lookup`] walks the rest.

use super::jsonb::{self, Edit, Jsonb, MAX_DEPTH};
use super::render::{unescape_one, utf8_read_limited};

/// Why a lookup stopped without a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LookupError {
    /// The JSONB is malformed.
    Malformed,
    /// No element at the path.
    NotFound,
    /// `json_array_insert` on a path that names no array element.
    NotArray,
    /// Nested too deep.
    TooDeep,
    /// The path is malformed.
    BadPath,
}

/// The error message SQLite gives for `e` on `path` (SQLite's
/// `jsonBadPathError`).
pub fn path_error(path: &str, e: LookupError) -> crate::Error {
    let quoted = crate::func::scalar::quote(&crate::Value::Text(path.to_owned().into()));
    crate::Error::InvalidInput(match e {
        LookupError::NotArray => format!("not an array element: {quoted}"),
        LookupError::Malformed => "malformed JSON".into(),
        LookupError::TooDeep => "JSON path too deep".into(),
        _ => format!("bad JSON path: {quoted}"),
    })
}

/// Follows `path` (without its `$`) from the element at `root`; applies
/// `j.edit` where the path ends (or where it would have to be created).
/// Returns the index of the element found (meaningless after an edit);
/// `j.label` is set to the label of an object member found.
///
/// `path[pos..]` is what remains to walk; `path[pos - 1]` (when `pos > 0`)
/// tells `json_array_insert` whether the path ended on an array step.
pub fn lookup(
    j: &mut Jsonb,
    root: usize,
    path: &[u8],
    pos: usize,
    label: usize,
) -> Result<usize, LookupError> {
    stacker::maybe_grow(64 << 10, 1 << 20, || lookup_at(j, root, path, pos, label))
}

fn at(z: &[u8], i: usize) -> u8 {
    z.get(i).copied().unwrap_or(0)
}

fn lookup_at(
    j: &mut Jsonb,
    mut root: usize,
    full: &[u8],
    pos: usize,
    label: usize,
) -> Result<usize, LookupError> {
    use LookupError as E;
    let path = full.get(pos..).unwrap_or(&[]);
    if at(path, 0) == 0 {
        if j.edit != Edit::None {
            let (n, sz) = j.size_or_zero(root);
            let mut sz = sz + n;
            match j.edit {
                Edit::Delete => {
                    if label > 0 {
                        sz += root - label;
                        root = label;
                    }
                    j.edit_bytes(root, sz, Err(0));
                }
                Edit::Insert => {} // exists already: json_insert does nothing
                Edit::ArrayInsert => {
                    if pos == 0 || full[pos - 1] != b']' {
                        return Err(E::NotArray);
                    }
                    let ins = std::mem::take(&mut j.ins);
                    j.edit_bytes(root, 0, Ok(&ins));
                    j.ins = ins;
                }
                _ => {
                    let ins = std::mem::take(&mut j.ins);
                    j.edit_bytes(root, sz, Ok(&ins));
                    j.ins = ins;
                }
            }
        }
        j.label = label;
        return Ok(root);
    }
    if path[0] == b'.' {
        let path = &path[1..];
        let x = j.kind(root);
        // `rest` is where the path continues, as an offset into `full`.
        let (key, raw_key, rest): (&[u8], bool, usize) = if at(path, 0) == b'"' {
            let mut i = 1;
            while at(path, i) != 0 && at(path, i) != b'"' {
                if at(path, i) == b'\\' && at(path, i + 1) != 0 {
                    i += 1;
                }
                i += 1;
            }
            let key = &path[1..i];
            if at(path, i) == 0 {
                return Err(E::BadPath);
            }
            (key, !key.contains(&b'\\'), pos + 1 + i + 1)
        } else {
            let n =
                path.iter().position(|&c| c == 0 || c == b'.' || c == b'[').unwrap_or(path.len());
            if n == 0 {
                return Err(E::BadPath);
            }
            (&path[..n], true, pos + 1 + n)
        };
        if x != jsonb::OBJECT {
            return Err(E::NotFound);
        }
        let (n, sz) = j.size_or_zero(root);
        let mut k = root + n; // a label
        let end = k + sz;
        while k < end {
            let x = j.kind(k);
            if !(jsonb::TEXT..=jsonb::TEXTRAW).contains(&x) {
                return Err(E::Malformed);
            }
            let Some((n, sz)) = j.payload_size(k) else { return Err(E::Malformed) };
            let text = k + n;
            if text + sz >= end {
                return Err(E::Malformed);
            }
            let raw_label = x == jsonb::TEXT || x == jsonb::TEXTRAW;
            if label_eq(key, raw_key, &j.blob[text..text + sz], raw_label) {
                let v = text + sz; // the value
                if j.blob[v] & 0x0f > jsonb::OBJECT {
                    return Err(E::Malformed);
                }
                let Some((vn, vsz)) = j.payload_size(v) else { return Err(E::Malformed) };
                if v + vn + vsz > end {
                    return Err(E::Malformed);
                }
                j.depth += 1;
                if j.depth >= MAX_DEPTH {
                    return Err(E::TooDeep);
                }
                let rc = lookup(j, v, full, rest, k);
                j.depth = j.depth.saturating_sub(1);
                if j.delta != 0 {
                    j.after_edit_size_adjust(root);
                }
                return rc;
            }
            k = text + sz;
            if j.blob.get(k).is_none_or(|b| b & 0x0f > jsonb::OBJECT) {
                return Err(E::Malformed);
            }
            let Some((n, sz)) = j.payload_size(k) else { return Err(E::Malformed) };
            k += n + sz;
        }
        if k > end {
            return Err(E::Malformed);
        }
        if j.edit >= Edit::Insert {
            let tail = full.get(rest..).unwrap_or(&[]);
            let tail = &tail[..tail.iter().position(|&c| c == 0).unwrap_or(tail.len())];
            if j.edit == Edit::ArrayInsert && !tail.ends_with(b"]") {
                return Err(E::NotArray);
            }
            let mut ins = Vec::new();
            jsonb::append_header(
                &mut ins,
                if raw_key { jsonb::TEXTRAW } else { jsonb::TEXT5 },
                key.len(),
            );
            ins.extend_from_slice(key);
            let value = edit_substructure(j, full, rest)?;
            ins.extend_from_slice(&value);
            j.edit_bytes(k, 0, Ok(&ins));
            if j.delta != 0 {
                j.after_edit_size_adjust(root);
            }
            return Ok(k);
        }
    } else if path[0] == b'[' {
        let x = j.kind(root);
        if x != jsonb::ARRAY {
            return Err(E::NotFound);
        }
        let (n, sz) = j.size_or_zero(root);
        let mut kk: u64 = 0;
        let mut i = 1;
        while at(path, i).is_ascii_digit() {
            if kk < 0xffff_ffff {
                kk = kk * 10 + u64::from(at(path, i) - b'0');
            }
            i += 1;
        }
        if i < 2 || at(path, i) != b']' {
            if at(path, 1) == b'#' {
                kk = j.array_count(root) as u64;
                i = 2;
                if at(path, 2) == b'-' && at(path, 3).is_ascii_digit() {
                    let mut nn: u64 = 0;
                    i = 3;
                    loop {
                        if nn < 0xffff_ffff {
                            nn = nn * 10 + u64::from(at(path, i) - b'0');
                        }
                        i += 1;
                        if !at(path, i).is_ascii_digit() {
                            break;
                        }
                    }
                    if nn > kk {
                        return Err(E::NotFound);
                    }
                    kk -= nn;
                }
                if at(path, i) != b']' {
                    return Err(E::BadPath);
                }
            } else {
                return Err(E::BadPath);
            }
        }
        let rest = pos + i + 1;
        let mut k = root + n;
        let end = k + sz;
        while k < end {
            if kk == 0 {
                j.depth += 1;
                if j.depth >= MAX_DEPTH {
                    return Err(E::TooDeep);
                }
                let rc = lookup(j, k, full, rest, 0);
                j.depth = j.depth.saturating_sub(1);
                if j.delta != 0 {
                    j.after_edit_size_adjust(root);
                }
                return rc;
            }
            kk -= 1;
            let Some((n, sz)) = j.payload_size(k) else { return Err(E::Malformed) };
            k += n + sz;
        }
        if k > end {
            return Err(E::Malformed);
        }
        if kk > 0 {
            return Err(E::NotFound);
        }
        if j.edit >= Edit::Insert {
            let value = edit_substructure(j, full, rest)?;
            j.edit_bytes(k, 0, Ok(&value));
            if j.delta != 0 {
                j.after_edit_size_adjust(root);
            }
            return Ok(k);
        }
    } else {
        return Err(E::BadPath);
    }
    Err(E::NotFound)
}

/// What an insertion at a path that does not exist yet puts there: the
/// value itself, or (for `$.a.b.c` when only `$.a` exists) the objects
/// and arrays the rest of the path creates around it (SQLite's
/// `jsonCreateEditSubstructure`).
fn edit_substructure(j: &Jsonb, full: &[u8], tail: usize) -> Result<Vec<u8>, LookupError> {
    let first = full.get(tail).copied().unwrap_or(0);
    if first == 0 {
        return Ok(j.ins.clone());
    }
    let empty = if first == b'.' { jsonb::OBJECT } else { jsonb::ARRAY };
    let mut sub = Jsonb::new(vec![empty]);
    sub.edit = j.edit;
    sub.ins = j.ins.clone();
    sub.depth = j.depth + 1;
    if sub.depth >= MAX_DEPTH {
        return Err(LookupError::TooDeep);
    }
    lookup(&mut sub, 0, full, tail, 0)?;
    Ok(sub.blob)
}

/// Object label equality: raw bytes when neither side has escapes, else
/// by decoded character (SQLite's `jsonLabelCompare`).
pub fn label_eq(left: &[u8], raw_left: bool, right: &[u8], raw_right: bool) -> bool {
    if raw_left && raw_right {
        return left == right;
    }
    let next = |z: &mut &[u8], raw: bool| -> u32 {
        if z.is_empty() {
            return 0;
        }
        if raw || z[0] != b'\\' {
            let c = u32::from(z[0]);
            if c >= 0xc0 {
                let (n, c) = utf8_read_limited(z);
                *z = &z[n..];
                c
            } else {
                *z = &z[1..];
                c
            }
        } else {
            let (n, c) = unescape_one(z);
            *z = &z[n.min(z.len())..];
            c
        }
    };
    let (mut l, mut r) = (left, right);
    loop {
        let a = next(&mut l, raw_left);
        let b = next(&mut r, raw_right);
        if a != b {
            return false;
        }
        if a == 0 {
            return true;
        }
    }
}

/// Why a merge patch failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchError {
    BadTarget,
    BadPatch,
    TooDeep,
}

/// RFC 7396 MergePatch of `patch` (element at `ip`) into `target`
/// (element at `it`), in place (SQLite's `jsonMergePatch`).
pub fn merge_patch(
    target: &mut Jsonb,
    it: usize,
    patch: &Jsonb,
    ip: usize,
    depth: u32,
) -> Result<(), PatchError> {
    stacker::maybe_grow(64 << 10, 1 << 20, || merge_patch_at(target, it, patch, ip, depth))
}

fn merge_patch_at(
    target: &mut Jsonb,
    it: usize,
    patch: &Jsonb,
    ip: usize,
    depth: u32,
) -> Result<(), PatchError> {
    use PatchError as E;
    if patch.kind(ip) != jsonb::OBJECT {
        let (n, sz) = patch.size_or_zero(ip);
        let whole = patch.blob[ip..(ip + n + sz).min(patch.blob.len())].to_vec();
        let (n, sz) = target.size_or_zero(it);
        target.edit_bytes(it, n + sz, Ok(&whole));
        return Ok(());
    }
    if target.kind(it) != jsonb::OBJECT {
        let (n, sz) = target.size_or_zero(it);
        target.edit_bytes(it + n, sz, Err(0));
        let x = target.blob[it];
        target.blob[it] = (x & 0xf0) | jsonb::OBJECT;
    }
    let Some((n, sz)) = patch.payload_size(ip) else { return Err(E::BadPatch) };
    let mut pc = ip + n;
    let pend = pc + sz;
    let Some((n, sz)) = target.payload_size(it) else { return Err(E::BadTarget) };
    let tstart = it + n;
    let tend_before = tstart + sz;
    while pc < pend {
        let plabel = pc;
        let plt = patch.kind(pc);
        if !(jsonb::TEXT..=jsonb::TEXTRAW).contains(&plt) {
            return Err(E::BadPatch);
        }
        let Some((npl, szpl)) = patch.payload_size(pc) else { return Err(E::BadPatch) };
        let pvalue = pc + npl + szpl;
        if pvalue >= pend {
            return Err(E::BadPatch);
        }
        let Some((npv, szpv)) = patch.payload_size(pvalue) else { return Err(E::BadPatch) };
        pc = pvalue + npv + szpv;
        if pc > pend {
            return Err(E::BadPatch);
        }
        let mut tc = tstart;
        let tend = (tend_before as i64 + target.delta) as usize;
        let (mut tlabel, mut ntl, mut sztl, mut ntv, mut sztv) = (0, 0, 0, 0, 0);
        while tc < tend {
            tlabel = tc;
            let tlt = target.kind(tc);
            if !(jsonb::TEXT..=jsonb::TEXTRAW).contains(&tlt) {
                return Err(E::BadTarget);
            }
            let Some((a, b)) = target.payload_size(tc) else { return Err(E::BadTarget) };
            (ntl, sztl) = (a, b);
            let tvalue = tlabel + ntl + sztl;
            if tvalue >= tend {
                return Err(E::BadTarget);
            }
            let Some((a, b)) = target.payload_size(tvalue) else { return Err(E::BadTarget) };
            (ntv, sztv) = (a, b);
            if tvalue + ntv + sztv > tend {
                return Err(E::BadTarget);
            }
            let equal = label_eq(
                &patch.blob[plabel + npl..plabel + npl + szpl],
                plt == jsonb::TEXT || plt == jsonb::TEXTRAW,
                &target.blob[tlabel + ntl..tlabel + ntl + sztl],
                tlt == jsonb::TEXT || tlt == jsonb::TEXTRAW,
            );
            if equal {
                break;
            }
            tc = tvalue + ntv + sztv;
        }
        let x = patch.kind(pvalue);
        if tc < tend {
            // The label is in the target.
            if x == jsonb::NULL {
                target.edit_bytes(tlabel, ntl + sztl + ntv + sztv, Err(0));
            } else {
                let saved = target.delta;
                target.delta = 0;
                if depth >= MAX_DEPTH {
                    return Err(E::TooDeep);
                }
                merge_patch(target, tlabel + ntl + sztl, patch, pvalue, depth + 1)?;
                target.delta += saved;
            }
        } else if x != jsonb::NULL {
            let label_len = szpl + npl;
            if patch.kind(pvalue) != jsonb::OBJECT {
                let mut ins = patch.blob[plabel..plabel + label_len].to_vec();
                ins.extend_from_slice(&patch.blob[pvalue..pvalue + npv + szpv]);
                target.edit_bytes(tend, 0, Ok(&ins));
            } else {
                let mut ins = patch.blob[plabel..plabel + label_len].to_vec();
                ins.push(jsonb::NULL);
                target.edit_bytes(tend, 0, Ok(&ins));
                let saved = target.delta;
                target.delta = 0;
                if depth >= MAX_DEPTH {
                    return Err(E::TooDeep);
                }
                merge_patch(target, tend + label_len, patch, pvalue, depth + 1)?;
                target.delta += saved;
            }
        }
    }
    if target.delta != 0 {
        target.after_edit_size_adjust(it);
    }
    Ok(())
}
