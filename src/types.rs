//! The types of the program's globals, from the DWARF that clang emits with `-g`: enough
//! to name the bytes at an offset in a global the way the source does (`jobs[2].state`,
//! `grid[1][0]`, `cfg.limits.max`).

use std::collections::HashMap;

use addr2line::gimli;
use gimli::{AttributeValue, EndianSlice, RunTimeEndian, UnitOffset};

/// What a report needs of a type: its size and, for aggregates, its parts.
#[derive(Debug, Clone)]
pub enum Type {
    Scalar {
        size: u64,
    },
    Struct {
        size: u64,
        fields: Vec<(String, u64, Type)>,
    },
    Array {
        elem: Box<Type>,
        count: u64,
    },
}

impl Type {
    pub fn size(&self) -> u64 {
        match self {
            Type::Scalar { size } | Type::Struct { size, .. } => *size,
            Type::Array { elem, count } => elem.size() * count,
        }
    }

    /// The part of a value of this type at byte `off`: `.field`, `[i]`, and `+n` for what
    /// is left inside a scalar.
    pub fn path(&self, off: u64) -> String {
        match self {
            Type::Struct { fields, .. } => {
                let field = fields
                    .iter()
                    .rev()
                    .find(|(_, at, t)| *at <= off && (off < at + t.size().max(1)));
                match field {
                    Some((name, at, t)) if !name.is_empty() => {
                        format!(".{name}{}", t.path(off - at))
                    }
                    _ => plus(off),
                }
            }
            Type::Array { elem, count } => {
                let size = elem.size();
                if size == 0 || off / size >= *count {
                    return plus(off);
                }
                format!("[{}]{}", off / size, elem.path(off % size))
            }
            Type::Scalar { .. } => plus(off),
        }
    }
}

fn plus(off: u64) -> String {
    if off == 0 {
        String::new()
    } else {
        format!("+{off}")
    }
}

type R<'a> = EndianSlice<'a, RunTimeEndian>;

/// What the debug information says of the program's memory.
#[derive(Default)]
pub struct Types {
    /// The type of each global variable, by its address.
    pub globals: HashMap<u64, Type>,
    /// Each named struct, by its C name (a struct's tag, or the typedef of an anonymous
    /// one): a heap block accessed through it is named by its fields.
    pub records: HashMap<String, Type>,
}

impl Types {
    pub fn read(elf: &goblin::elf::Elf, bytes: &[u8]) -> Types {
        let endian = if elf.little_endian {
            RunTimeEndian::Little
        } else {
            RunTimeEndian::Big
        };
        let section = |id: gimli::SectionId| -> Result<R<'_>, gimli::Error> {
            let data = (elf.section_headers.iter())
                .find(|sh| elf.shdr_strtab.get_at(sh.sh_name) == Some(id.name()))
                .and_then(|sh| {
                    bytes.get(sh.sh_offset as usize..(sh.sh_offset + sh.sh_size) as usize)
                })
                .unwrap_or(&[]);
            Ok(EndianSlice::new(data, endian))
        };
        let mut out = Types::default();
        let Ok(dwarf) = gimli::Dwarf::load(section) else {
            return out;
        };
        let mut units = dwarf.units();
        while let Ok(Some(header)) = units.next() {
            let Ok(unit) = dwarf.unit(header) else {
                continue;
            };
            let mut entries = unit.entries();
            let mut depth = 0isize;
            while let Ok(Some((delta, entry))) = entries.next_dfs() {
                depth += delta;
                if depth != 1 {
                    continue;
                }
                let ty = || match entry.attr_value(gimli::DW_AT_type) {
                    Ok(Some(AttributeValue::UnitRef(t))) => type_at(&dwarf, &unit, t, 0),
                    _ => None,
                };
                match entry.tag() {
                    gimli::DW_TAG_variable => {
                        let addr = (entry.attr_value(gimli::DW_AT_location).ok().flatten())
                            .and_then(|v| v.exprloc_value())
                            .and_then(|e| address(&dwarf, &unit, e));
                        if let (Some(addr), Some(ty)) = (addr, ty()) {
                            out.globals.insert(addr, ty);
                        }
                    }
                    gimli::DW_TAG_structure_type => {
                        if let (Some(name), Some(t)) = (
                            name(&dwarf, &unit, entry),
                            type_at(&dwarf, &unit, entry.offset(), 0),
                        ) {
                            out.records.entry(name).or_insert(t);
                        }
                    }
                    gimli::DW_TAG_typedef => {
                        if let (Some(name), Some(t @ Type::Struct { .. })) =
                            (name(&dwarf, &unit, entry), ty())
                        {
                            out.records.entry(name).or_insert(t);
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }
}

/// Calls `f` on each child of the entry at `at` that has tag `tag`.
fn children<'a>(
    unit: &gimli::Unit<R<'a>>,
    at: UnitOffset,
    tag: gimli::DwTag,
    mut f: impl FnMut(&gimli::DebuggingInformationEntry<R<'a>>),
) -> Option<()> {
    let mut tree = unit.entries_tree(Some(at)).ok()?;
    let root = tree.root().ok()?;
    let mut children = root.children();
    while let Ok(Some(child)) = children.next() {
        if child.entry().tag() == tag {
            f(child.entry());
        }
    }
    Some(())
}

/// An entry's `DW_AT_name`.
fn name(
    dwarf: &gimli::Dwarf<R>,
    unit: &gimli::Unit<R>,
    e: &gimli::DebuggingInformationEntry<R>,
) -> Option<String> {
    (e.attr_value(gimli::DW_AT_name).ok().flatten())
        .and_then(|v| dwarf.attr_string(unit, v).ok())
        .map(|s| s.to_string_lossy().into_owned())
}

/// The address of a location that is one `DW_OP_addr` or `DW_OP_addrx`.
fn address(dwarf: &gimli::Dwarf<R>, unit: &gimli::Unit<R>, e: gimli::Expression<R>) -> Option<u64> {
    let mut ops = e.operations(unit.encoding());
    let op = ops.next().ok()??;
    if ops.next().ok()?.is_some() {
        return None;
    }
    match op {
        gimli::Operation::Address { address } => Some(address),
        gimli::Operation::AddressIndex { index } => dwarf.address(unit, index).ok(),
        _ => None,
    }
}

/// The type at `at`, to a bounded depth (types refer to each other through pointers,
/// which are scalars here, but a malformed input could loop).
fn type_at(
    dwarf: &gimli::Dwarf<R>,
    unit: &gimli::Unit<R>,
    at: UnitOffset,
    depth: u32,
) -> Option<Type> {
    if depth > 16 {
        return None;
    }
    let entry = unit.entry(at).ok()?;
    let size = entry
        .attr_value(gimli::DW_AT_byte_size)
        .ok()
        .flatten()
        .and_then(|v| v.udata_value());
    let inner = |e: &gimli::DebuggingInformationEntry<R>| match e.attr_value(gimli::DW_AT_type) {
        Ok(Some(AttributeValue::UnitRef(t))) => type_at(dwarf, unit, t, depth + 1),
        _ => None,
    };
    match entry.tag() {
        gimli::DW_TAG_typedef
        | gimli::DW_TAG_const_type
        | gimli::DW_TAG_volatile_type
        | gimli::DW_TAG_restrict_type
        | gimli::DW_TAG_atomic_type => inner(&entry),
        // A union's members overlap (and the C library's objects are unions of their
        // internals): it is named whole.
        gimli::DW_TAG_union_type => Some(Type::Scalar {
            size: size.unwrap_or(0),
        }),
        gimli::DW_TAG_structure_type | gimli::DW_TAG_class_type => {
            let mut fields = Vec::new();
            children(unit, at, gimli::DW_TAG_member, |m| {
                let name = name(dwarf, unit, m).unwrap_or_default();
                let offset = m
                    .attr_value(gimli::DW_AT_data_member_location)
                    .ok()
                    .flatten()
                    .and_then(|v| v.udata_value())
                    .unwrap_or(0);
                if let Some(t) = inner(m) {
                    fields.push((name, offset, t));
                }
            })?;
            Some(Type::Struct {
                size: size.unwrap_or(0),
                fields,
            })
        }
        gimli::DW_TAG_array_type => {
            let elem = inner(&entry)?;
            // One count per dimension, outermost first.
            let mut counts = Vec::new();
            children(unit, at, gimli::DW_TAG_subrange_type, |s| {
                let count = (s.attr_value(gimli::DW_AT_count).ok().flatten())
                    .and_then(|v| v.udata_value())
                    .or_else(|| {
                        (s.attr_value(gimli::DW_AT_upper_bound).ok().flatten())
                            .and_then(|v| v.udata_value())
                            .map(|u| u + 1)
                    })
                    .unwrap_or(0);
                counts.push(count);
            })?;
            Some(
                counts
                    .into_iter()
                    .rev()
                    .fold(elem, |elem, count| Type::Array {
                        elem: Box::new(elem),
                        count,
                    }),
            )
        }
        _ => Some(Type::Scalar {
            size: size.unwrap_or(0),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_named_by_fields_and_indices() {
        let int = || Type::Scalar { size: 4 };
        let job = Type::Struct {
            size: 12,
            fields: vec![
                ("id".into(), 0, int()),
                ("state".into(), 4, int()),
                (
                    "name".into(),
                    8,
                    Type::Array {
                        elem: Box::new(Type::Scalar { size: 1 }),
                        count: 4,
                    },
                ),
            ],
        };
        let jobs = Type::Array {
            elem: Box::new(job),
            count: 4,
        };
        assert_eq!(jobs.path(2 * 12 + 4), "[2].state");
        assert_eq!(jobs.path(12 + 10), "[1].name[2]");
        assert_eq!(jobs.path(6), "[0].state+2");
        assert_eq!(jobs.path(100), "+100");
    }
}
