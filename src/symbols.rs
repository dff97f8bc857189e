//! Names for addresses in reports: globals from the executable's symbol table, heap blocks
//! by the site that allocated them, stack memory and thread-local variables by the thread
//! that owns them.

use std::collections::HashMap;
use std::path::Path;

use cdpor_sched::layout;
use cdpor_sched::shm::Alloc;

use crate::instrument::{Record, Site, TlsVar};
use crate::schedule::Names;

struct Symbol {
    addr: u64,
    size: u64,
    name: String,
}

pub struct Symbols {
    /// Data and code symbols, sorted by address.
    data: Vec<Symbol>,
    code: Vec<Symbol>,
    /// Read-only data sections (string literals have no symbols of their own).
    constants: Vec<(u64, u64)>,
    /// Element size of the globals that are arrays, so that `a+8` reads `a[2]`.
    arrays: HashMap<String, u64>,
    /// The types of globals, by address, and of named structs, from the debug
    /// information: `jobs+28` reads `jobs[2].state`, a heap block's `+8` reads `.balance`.
    types: crate::types::Types,
    /// Source lines of code addresses (from the program's DWARF).
    lines: Option<addr2line::Loader>,
    tls: Vec<TlsVar>,
}

impl Symbols {
    pub fn load(binary: &Path, arrays: HashMap<String, u64>, tls: Vec<TlsVar>) -> Symbols {
        let mut data = Vec::new();
        let mut code = Vec::new();
        let mut constants = Vec::new();
        let mut types = crate::types::Types::default();
        if let Ok(bytes) = std::fs::read(binary) {
            if let Ok(elf) = goblin::elf::Elf::parse(&bytes) {
                types = crate::types::Types::read(&elf, &bytes);
                for sh in &elf.section_headers {
                    let name = elf.shdr_strtab.get_at(sh.sh_name).unwrap_or("");
                    if name.starts_with(".rodata") {
                        constants.push((sh.sh_addr, sh.sh_addr + sh.sh_size));
                    }
                }
                for sym in elf.syms.iter() {
                    let Some(name) = elf.strtab.get_at(sym.st_name) else {
                        continue;
                    };
                    if name.is_empty() || sym.st_value == 0 {
                        continue;
                    }
                    let s = Symbol {
                        addr: sym.st_value,
                        size: sym.st_size,
                        name: name.to_string(),
                    };
                    match sym.st_type() {
                        goblin::elf::sym::STT_OBJECT => data.push(s),
                        goblin::elf::sym::STT_FUNC => code.push(s),
                        _ => {}
                    }
                }
            }
        }
        data.sort_by_key(|s| s.addr);
        code.sort_by_key(|s| s.addr);
        let lines = addr2line::Loader::new(binary).ok();
        Symbols {
            data,
            code,
            constants,
            arrays,
            types,
            lines,
            tls,
        }
    }

    /// `file:line` of a code address, when the program's debug information knows it.
    pub fn line_at(&self, pc: u64) -> Option<String> {
        let loc = self.lines.as_ref()?.find_location(pc).ok()??;
        Some(format!("{}:{}", short(loc.file?), loc.line?))
    }

    fn find(list: &[Symbol], addr: u64) -> Option<&Symbol> {
        let i = list.partition_point(|s| s.addr <= addr);
        let s = list.get(i.checked_sub(1)?)?;
        (addr < s.addr + s.size.max(1)).then_some(s)
    }

    /// The function containing a code address, by the program's name for it.
    pub fn function_at(&self, pc: u64) -> Option<&str> {
        Self::find(&self.code, pc).map(|s| match s.name.as_str() {
            crate::instrument::USER_MAIN => "main",
            name => name,
        })
    }

    /// A readable name for memory at `addr`; `local` names the variable, and the function
    /// it is a local of, when the access goes to a local of the accessing function;
    /// `record`, the struct the access goes through, if known.
    pub fn name(
        &self,
        addr: u64,
        allocs: &[Alloc],
        sites: &[Site],
        (local, record): (Option<(&str, &str)>, Option<&Record>),
        names: &Names,
    ) -> String {
        if let Some(s) = Self::find(&self.data, addr) {
            let off = addr - s.addr;
            if let Some(t) = self.types.globals.get(&s.addr) {
                return format!("{}{}", s.name, t.path(off));
            }
            return match self.arrays.get(&s.name) {
                Some(&elem) if elem > 0 => {
                    offset(&format!("{}[{}]", s.name, off / elem), off % elem)
                }
                _ => offset(&s.name, off),
            };
        }
        if self
            .constants
            .iter()
            .any(|&(lo, hi)| (lo..hi).contains(&addr))
        {
            return "a constant".into();
        }
        if layout::in_heap(addr) {
            if let Some(a) = self.block_of(addr, allocs) {
                let at = sites
                    .get(a.site as usize)
                    .filter(|s| !s.file.is_empty())
                    .map(|s| format!(" from {}:{}", short(&s.file), s.line))
                    .unwrap_or_default();
                let block = format!("heap[{}B{at}]", a.size);
                let off = addr - a.addr;
                return match record.and_then(|r| self.field(r, a.size, off)) {
                    Some(field) => format!("{block}{field}"),
                    None => offset(&block, off),
                };
            }
            return format!("heap@{addr:#x}");
        }
        if let Some((t, off)) = layout::tls_owner(addr) {
            let owner = names.thread(t);
            // Each life of the number has its block (`layout::LIVES`).
            let off = off % layout::TLS_LIFE;
            if let Some(v) =
                (self.tls.iter()).find(|v| (v.offset..v.offset + v.size).contains(&off))
            {
                return offset(&format!("{} ({owner}'s)", v.name), off - v.offset);
            }
        }
        if let Some((t, _)) = layout::stack_owner(addr) {
            let owner = names.thread(t);
            return match local {
                Some((v, f)) if !f.is_empty() => format!("{v} ({owner}, {f}())"),
                Some((v, _)) => format!("{v} ({owner}'s stack)"),
                None => format!("{owner}'s stack@{addr:#x}"),
            };
        }
        format!("{addr:#x}")
    }
}

impl Symbols {
    /// The heap block `addr` lies in (`allocs` in the order of their addresses).
    pub fn block_of<'a>(&self, addr: u64, allocs: &'a [Alloc]) -> Option<&'a Alloc> {
        if !layout::in_heap(addr) {
            return None;
        }
        let i = allocs.partition_point(|a| a.addr <= addr);
        (i.checked_sub(1).and_then(|i| allocs.get(i))).filter(|a| addr < a.addr + a.size.max(1))
    }

    /// The size of the struct of that C name, if the debug information has it.
    pub fn record_size(&self, name: &str) -> Option<u64> {
        self.types.records.get(name).map(|t| t.size())
    }

    /// The part of a block of `size` bytes at `off`, read as the struct `r`: `.balance`
    /// if the block is one such struct; `[3].balance` if it holds several and `r` is
    /// what the access at `off` went through, lining up with its field in one of them (a
    /// struct embedded in another one's block would not).
    fn field(&self, r: &Record, size: u64, off: u64) -> Option<String> {
        let t = self.types.records.get(&r.name)?;
        let each = t.size();
        if each == size {
            return Some(t.path(off));
        }
        let start = off.checked_sub(r.offset)?;
        if each == 0 || !size.is_multiple_of(each) || !start.is_multiple_of(each) {
            return None;
        }
        let index = if size > each {
            format!("[{}]", off / each)
        } else {
            String::new()
        };
        Some(format!("{index}{}", t.path(off % each)))
    }
}

fn offset(name: &str, off: u64) -> String {
    if off == 0 {
        name.to_string()
    } else {
        format!("{name}+{off}")
    }
}

/// A source path as reports show it: relative to the current directory when it is under
/// it, else as it is.
pub fn short(path: &str) -> std::borrow::Cow<'_, str> {
    if path.starts_with('/') {
        if let Ok(cwd) = std::env::current_dir() {
            if let Ok(rel) = Path::new(path).strip_prefix(&cwd) {
                return rel.to_string_lossy().into_owned().into();
            }
        }
    }
    path.into()
}
