//! NumPy `.npy` files (format versions 1, 2 and 3) for `promote eval`'s operands and result:
//! the carrier for big arrays, read memory-mapped and written in one pass.
//!
//! Little-endian files of the 15 dtypes are read (`|b1`, `|u1` … `<c16`); bfloat16 is read
//! and written as ml_dtypes saves it, a two-byte void `<V2` (load it back with
//! `np.load(path).view(ml_dtypes.bfloat16)`). Elementwise ops see an array's elements in
//! file order, so any shape is accepted; [`write()`] gives the result the shape of its
//! operands.
//!
//! ```
//! use promote::kernel::{array::Array, npy};
//! let path = std::env::temp_dir().join(format!("promote-doc-{}.npy", std::process::id()));
//! let a = Array::from(vec![1.5f32, -0.0, f32::NAN]);
//! npy::write(&path, a.view(), &[3]).unwrap();
//! let back = npy::read(&path).unwrap();
//! assert_eq!(back.shape, vec![3]);
//! assert_eq!(back.view().len(), 3);
//! std::fs::remove_file(&path).unwrap();
//! ```

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use half::{bf16, f16};

use super::array::{Array, View, ViewMut, C32, C64};
use crate::dtype::DType;
use crate::error::PromoteError;

const MAGIC: &[u8] = b"\x93NUMPY";

/// An array read from a `.npy` file: its elements (memory-mapped where aligned) and shape.
///
/// ```
/// use promote::kernel::{npy, Array};
/// let path = std::env::temp_dir().join("promote-doc-npy-struct.npy");
/// npy::write(&path, Array::from(vec![1u16, 2, 3, 4]).view(), &[2, 2]).unwrap();
/// let back = npy::read(&path).unwrap();
/// assert_eq!((back.shape.clone(), back.fortran_order), (vec![2, 2], false));
/// ```
pub struct Npy {
    /// The dtype of the elements.
    pub dtype: DType,
    /// The shape (`[]` for a 0-d array).
    pub shape: Vec<usize>,
    /// Column-major (`fortran_order: True`).
    pub fortran_order: bool,
    storage: Storage,
}

enum Storage {
    Mapped {
        map: memmap2::Mmap,
        offset: usize,
        len: usize,
    },
    Owned(Array),
}

impl Npy {
    /// The elements, in file order.
    ///
    /// ```
    /// use promote::kernel::{npy, Array};
    /// let path = std::env::temp_dir().join("promote-doc-npy-view.npy");
    /// npy::write(&path, Array::from(vec![1.5f64]).view(), &[]).unwrap();
    /// assert_eq!(npy::read(&path).unwrap().view().to_array(), Array::from(vec![1.5f64]));
    /// ```
    pub fn view(&self) -> View<'_> {
        match &self.storage {
            Storage::Owned(a) => a.view(),
            Storage::Mapped { map, offset, len } => {
                let bytes = &map[*offset..*offset + len * self.dtype.itemsize()];
                typed_view(self.dtype, bytes).unwrap_or_else(|| unreachable_view(self.dtype))
            }
        }
    }
}

/// Never used: `read` maps only files whose bytes [`typed_view`] accepts.
fn unreachable_view(d: DType) -> View<'static> {
    crate::with_dtype!(d, T => <T as super::array::Element>::view(&[]))
}

/// The bytes as elements of a dtype, when aligned and valid (bools must be 0 or 1).
fn typed_view(d: DType, b: &[u8]) -> Option<View<'_>> {
    use bytemuck::{checked, try_cast_slice as cast};
    Some(match d {
        DType::Bool => View::Bool(checked::try_cast_slice::<u8, bool>(b).ok()?),
        DType::UInt8 => View::UInt8(b),
        DType::UInt16 => View::UInt16(cast(b).ok()?),
        DType::UInt32 => View::UInt32(cast(b).ok()?),
        DType::UInt64 => View::UInt64(cast(b).ok()?),
        DType::Int8 => View::Int8(cast(b).ok()?),
        DType::Int16 => View::Int16(cast(b).ok()?),
        DType::Int32 => View::Int32(cast(b).ok()?),
        DType::Int64 => View::Int64(cast(b).ok()?),
        DType::BFloat16 => View::BFloat16(cast::<u8, bf16>(b).ok()?),
        DType::Float16 => View::Float16(cast::<u8, f16>(b).ok()?),
        DType::Float32 => View::Float32(cast(b).ok()?),
        DType::Float64 => View::Float64(cast(b).ok()?),
        DType::Complex64 => View::Complex64(cast::<u8, C32>(b).ok()?),
        DType::Complex128 => View::Complex128(cast::<u8, C64>(b).ok()?),
        _ => return None,
    })
}

/// The bytes of a view, as the file stores them.
fn bytes_of<'a>(v: &View<'a>) -> &'a [u8] {
    use bytemuck::cast_slice as bytes;
    match *v {
        View::Bool(s) => bytes(s),
        View::UInt8(s) => s,
        View::UInt16(s) => bytes(s),
        View::UInt32(s) => bytes(s),
        View::UInt64(s) => bytes(s),
        View::Int8(s) => bytes(s),
        View::Int16(s) => bytes(s),
        View::Int32(s) => bytes(s),
        View::Int64(s) => bytes(s),
        View::BFloat16(s) => bytes(s),
        View::Float16(s) => bytes(s),
        View::Float32(s) => bytes(s),
        View::Float64(s) => bytes(s),
        View::Complex64(s) => bytes(s),
        View::Complex128(s) => bytes(s),
    }
}

/// The `descr` NumPy writes for a dtype (bfloat16 as ml_dtypes saves it).
///
/// ```
/// use promote::{kernel::npy::descr, DType};
/// assert_eq!(descr(DType::Float32), "<f4");
/// ```
pub fn descr(d: DType) -> &'static str {
    match d {
        DType::Bool => "|b1",
        DType::UInt8 => "|u1",
        DType::UInt16 => "<u2",
        DType::UInt32 => "<u4",
        DType::UInt64 => "<u8",
        DType::Int8 => "|i1",
        DType::Int16 => "<i2",
        DType::Int32 => "<i4",
        DType::Int64 => "<i8",
        DType::BFloat16 => "<V2",
        DType::Float16 => "<f2",
        DType::Float32 => "<f4",
        DType::Float64 => "<f8",
        DType::Complex64 => "<c8",
        DType::Complex128 => "<c16",
        // ml_dtypes saves its dtypes as opaque bytes of their item size
        d if d.itemsize() == 1 => "|V1",
        _ => "|V4",
    }
}

fn dtype_of_descr(text: &str) -> Result<DType, String> {
    if text.starts_with('>') && !text.ends_with('1') {
        return Err(format!(
            "`{text}` is big-endian; save it little-endian: arr.astype(arr.dtype.newbyteorder('<'))"
        ));
    }
    let little = text.replacen('=', "<", 1).replacen('>', "|", 1);
    DType::classic()
        .find(|&d| {
            let ours = descr(d);
            little == ours || little[1..] == ours[1..] && d.itemsize() == 1
        })
        .or((little == "|V2").then_some(DType::BFloat16))
        .ok_or_else(|| {
            format!("`{text}` is not one of the 15 dtypes (bool, integers, floats, complex)")
        })
}

/// The header dict's fields: `descr`, `fortran_order`, `shape`.
fn parse_header(h: &str) -> Result<(String, bool, Vec<usize>), String> {
    let after = |key: &str| -> Result<&str, String> {
        let k = format!("'{key}':");
        h.find(&k)
            .map(|i| h[i + k.len()..].trim_start())
            .ok_or_else(|| format!("the header has no '{key}'"))
    };
    let d = after("descr")?;
    let quote = d.chars().next().filter(|c| *c == '\'' || *c == '"');
    let descr = quote
        .and_then(|q| d[1..].split_once(q))
        .map(|(s, _)| s.to_string())
        .ok_or("'descr' is not a plain type string (structured arrays are not operands)")?;
    let fortran_order = after("fortran_order")?.starts_with("True");
    let s = after("shape")?;
    let tuple = s
        .strip_prefix('(')
        .and_then(|r| r.split_once(')'))
        .ok_or("'shape' is not a tuple")?
        .0;
    let shape = tuple
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| t.trim_end_matches('L').parse::<usize>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| format!("'shape' ({tuple}) is not a tuple of sizes"))?;
    Ok((descr, fortran_order, shape))
}

/// Read a `.npy` file, memory-mapped.
///
/// ```
/// use promote::kernel::npy;
/// let e = npy::read(std::path::Path::new("/no/such/file.npy")).err().unwrap();
/// assert!(e.to_string().contains("/no/such/file.npy"));
/// ```
pub fn read(path: &Path) -> Result<Npy, PromoteError> {
    let shown = path.display().to_string();
    let bad = |m: String| PromoteError::invalid(format!("{shown}: {m}"));
    let file = File::open(path).map_err(|e| PromoteError::io(&shown, &e))?;
    // SAFETY: the map is read-only; a file changed by another process while we read it
    // gives other numbers, not memory unsafety for these plain-data element types.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| PromoteError::io(&shown, &e))?;
    if map.len() < 10 || &map[..6] != MAGIC {
        return Err(bad("not a .npy file (no \\x93NUMPY magic)".into()));
    }
    let (len_bytes, start) = match map[6] {
        1 => (2, 10),
        2 | 3 => (4, 12),
        v => return Err(bad(format!("format version {v} (1, 2 and 3 are read)"))),
    };
    let header_len = map[8..8 + len_bytes]
        .iter()
        .rev()
        .fold(0usize, |acc, &b| acc << 8 | usize::from(b));
    let offset = start + header_len;
    let header = map
        .get(start..offset)
        .and_then(|h| std::str::from_utf8(h).ok())
        .ok_or_else(|| bad("the header is cut short or not text".into()))?;
    let (descr, fortran_order, shape) = parse_header(header).map_err(bad)?;
    let dtype = dtype_of_descr(&descr).map_err(bad)?;
    let len = shape
        .iter()
        .try_fold(1usize, |n, &s| n.checked_mul(s))
        .ok_or_else(|| bad(format!("the shape {shape:?} is too large")))?;
    let end = len
        .checked_mul(dtype.itemsize())
        .and_then(|b| b.checked_add(offset))
        .filter(|&e| e <= map.len())
        .ok_or_else(|| {
            bad(format!(
                "the file is shorter than its {len} {dtype} elements"
            ))
        })?;
    let bytes = &map[offset..end];
    let storage = match typed_view(dtype, bytes) {
        Some(_) => Storage::Mapped { map, offset, len },
        None => Storage::Owned(copy_elements(dtype, bytes).map_err(bad)?),
    };
    Ok(Npy {
        dtype,
        shape,
        fortran_order,
        storage,
    })
}

/// Elements from unaligned bytes (copied); bools must be 0 or 1.
fn copy_elements(d: DType, bytes: &[u8]) -> Result<Array, String> {
    if d == DType::Bool {
        if let Some(b) = bytes.iter().find(|&&b| b > 1) {
            return Err(format!("a bool element is the byte {b}, not 0 or 1"));
        }
        return Ok(Array::from(
            bytes.iter().map(|&b| b == 1).collect::<Vec<bool>>(),
        ));
    }
    let mut a = Array::zeros(d, bytes.len() / d.itemsize());
    bytes_of_mut(a.view_mut()).copy_from_slice(bytes);
    Ok(a)
}

/// The bytes of a mutable view of a plain-data dtype (bool is not: any byte but 0 and 1
/// would be an invalid bool, so [`copy_elements`] builds bools itself and gets none here).
fn bytes_of_mut(v: ViewMut<'_>) -> &mut [u8] {
    use bytemuck::cast_slice_mut as bytes;
    match v {
        ViewMut::Bool(_) => &mut [],
        ViewMut::UInt8(s) => s,
        ViewMut::UInt16(s) => bytes(s),
        ViewMut::UInt32(s) => bytes(s),
        ViewMut::UInt64(s) => bytes(s),
        ViewMut::Int8(s) => bytes(s),
        ViewMut::Int16(s) => bytes(s),
        ViewMut::Int32(s) => bytes(s),
        ViewMut::Int64(s) => bytes(s),
        ViewMut::BFloat16(s) => bytes(s),
        ViewMut::Float16(s) => bytes(s),
        ViewMut::Float32(s) => bytes(s),
        ViewMut::Float64(s) => bytes(s),
        ViewMut::Complex64(s) => bytes(s),
        ViewMut::Complex128(s) => bytes(s),
    }
}

/// The bytes before the elements of a `.npy` file of a dtype and shape: the magic, the
/// version (1, or 2 when the header needs it), the header padded to a multiple of 64 bytes.
fn preamble(d: DType, shape: &[usize]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
    let tuple = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {tuple}, }}",
        descr(d)
    );
    let (version, prefix) = if header.len() + 11 <= u16::MAX as usize {
        (1u8, 10)
    } else {
        (2u8, 12)
    };
    while (prefix + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = Vec::with_capacity(prefix + header.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[version, 0]);
    match version {
        1 => out.extend_from_slice(&(header.len() as u16).to_le_bytes()),
        _ => out.extend_from_slice(&(header.len() as u32).to_le_bytes()),
    }
    out.extend_from_slice(header.as_bytes());
    out
}

/// Write a view as a version-1 `.npy` file (version 2 when the header needs it) of a shape.
///
/// ```
/// use promote::kernel::{npy, Array};
/// let path = std::env::temp_dir().join("promote-doc-npy-write.npy");
/// npy::write(&path, Array::from(vec![true, false]).view(), &[2]).unwrap();
/// assert_eq!(npy::read(&path).unwrap().view().to_array(), Array::from(vec![true, false]));
/// ```
pub fn write(path: &Path, v: View<'_>, shape: &[usize]) -> Result<(), PromoteError> {
    let shown = path.display().to_string();
    let io = |e: std::io::Error| PromoteError::io(&shown, &e);
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path).map_err(io)?);
    out.write_all(&preamble(v.dtype(), shape)).map_err(io)?;
    out.write_all(bytes_of(&v)).map_err(io)?;
    // no fsync: the result goes to the page cache, as `np.save` leaves it (a sync to disk
    // cost several times the computation for large results)
    out.into_inner().map_err(|e| io(e.into_error()))?;
    Ok(())
}

/// A `.npy` file made at its full size, its elements mapped for writing: a kernel computes
/// straight into the file's pages ([`NpyOut::view_mut`]), with no buffer in between and no
/// copy into the page cache afterwards (which cost more than the computation for large
/// results). The file is written under a temporary name beside `path` and renamed to `path`
/// by [`NpyOut::finish`]; dropped unfinished, it is removed, so that a failed computation
/// leaves no partial result (and an operand mapped from `path` itself stays intact).
///
/// ```
/// use promote::kernel::{npy, Array, Element};
/// use promote::DType;
/// let path = std::env::temp_dir().join(format!("promote-doc-create-{}.npy", std::process::id()));
/// let mut out = npy::create(&path, DType::Int16, &[2, 2]).unwrap();
/// i16::slice_mut(out.view_mut()).unwrap().copy_from_slice(&[1, -2, 3, -4]);
/// out.finish().unwrap();
/// let back = npy::read(&path).unwrap();
/// assert_eq!((back.shape.clone(), back.view().to_array()), (vec![2, 2], Array::from(vec![1i16, -2, 3, -4])));
/// std::fs::remove_file(&path).unwrap();
/// ```
pub struct NpyOut {
    /// `None` once finished.
    map: Option<memmap2::MmapMut>,
    offset: usize,
    dtype: DType,
    len: usize,
    temp: std::path::PathBuf,
    path: std::path::PathBuf,
    done: bool,
}

/// Create the `.npy` file of a result of a dtype and shape, mapped for writing (see
/// [`NpyOut`]); its elements start as zeros.
///
/// ```
/// use promote::kernel::{npy, Array};
/// use promote::DType;
/// let path = std::env::temp_dir().join(format!("promote-doc-create0-{}.npy", std::process::id()));
/// npy::create(&path, DType::Bool, &[3]).unwrap().finish().unwrap();
/// assert_eq!(npy::read(&path).unwrap().view().to_array(), Array::from(vec![false; 3]));
/// std::fs::remove_file(&path).unwrap();
/// ```
pub fn create(path: &Path, dtype: DType, shape: &[usize]) -> Result<NpyOut, PromoteError> {
    let shown = path.display().to_string();
    let io = |e: std::io::Error| PromoteError::io(&shown, &e);
    let too_big = || PromoteError::invalid(format!("{shown}: the shape {shape:?} is too large"));
    let len = shape
        .iter()
        .try_fold(1usize, |n, &s| n.checked_mul(s))
        .ok_or_else(too_big)?;
    if !dtype.is_classic() {
        return Err(PromoteError::invalid(format!(
            "{shown}: {dtype} arrays are not written as .npy by eval"
        )));
    }
    let head = preamble(dtype, shape);
    let size = len
        .checked_mul(dtype.itemsize())
        .and_then(|b| b.checked_add(head.len()))
        .ok_or_else(too_big)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let temp = path.with_file_name(format!(
        ".{}.promote-{}",
        name.unwrap_or_default(),
        std::process::id()
    ));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&temp)
        .map_err(io)?;
    let made = reserve(&file, size).and_then(|()| {
        // SAFETY: the file was just created by this process under a name of its own; a
        // process that changes it meanwhile changes the numbers written, not memory safety
        // (plain-data elements).
        let mut map = unsafe { memmap2::MmapMut::map_mut(&file) }?;
        map[..head.len()].copy_from_slice(&head);
        Ok(map)
    });
    match made {
        Ok(map) => Ok(NpyOut {
            map: Some(map),
            offset: head.len(),
            dtype,
            len,
            temp,
            path: path.to_path_buf(),
            done: false,
        }),
        Err(e) => {
            let _ = std::fs::remove_file(&temp);
            Err(io(e))
        }
    }
}

/// Give a new file its size: allocated up front where the file system can (`fallocate`:
/// the pages written later need no block allocation each), else as a sparse file.
fn reserve(file: &File, size: usize) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        if let Ok(len) = libc::off_t::try_from(size) {
            // SAFETY: a valid open descriptor; mode 0 only allocates (and extends the size).
            if len > 0 && unsafe { libc::fallocate(file.as_raw_fd(), 0, 0, len) } == 0 {
                return Ok(());
            }
        }
    }
    file.set_len(size as u64)
}

impl NpyOut {
    /// The elements, in file order, to compute into.
    ///
    /// ```
    /// use promote::kernel::{npy, Element};
    /// use promote::DType;
    /// let path = std::env::temp_dir().join(format!("promote-doc-viewmut-{}.npy", std::process::id()));
    /// let mut out = npy::create(&path, DType::Float64, &[2]).unwrap();
    /// assert_eq!(f64::slice_mut(out.view_mut()).unwrap(), &mut [0.0, 0.0]);
    /// ```
    pub fn view_mut(&mut self) -> ViewMut<'_> {
        let (d, range) = (
            self.dtype,
            self.offset..self.offset + self.len * self.dtype.itemsize(),
        );
        match self.map.as_mut() {
            Some(map) => {
                typed_view_mut(d, &mut map[range]).unwrap_or_else(|| unreachable_view_mut(d))
            }
            None => unreachable_view_mut(d),
        }
    }

    /// The file complete: unmapped and renamed to its path (no fsync, as `np.save`).
    ///
    /// ```
    /// use promote::kernel::npy;
    /// use promote::DType;
    /// let path = std::env::temp_dir().join(format!("promote-doc-finish-{}.npy", std::process::id()));
    /// let out = npy::create(&path, DType::Int8, &[4]).unwrap();
    /// assert!(!path.exists()); // written under a temporary name until complete
    /// out.finish().unwrap();
    /// assert_eq!(npy::read(&path).unwrap().shape, vec![4]);
    /// std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn finish(mut self) -> Result<(), PromoteError> {
        let shown = self.path.display().to_string();
        self.map = None; // unmapped: the pages stay in the page cache
        std::fs::rename(&self.temp, &self.path).map_err(|e| PromoteError::io(&shown, &e))?;
        self.done = true;
        Ok(())
    }
}

impl Drop for NpyOut {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// Never used: [`create`] maps whole pages, whose start is aligned for every dtype, and its
/// bool elements start as zero bytes.
fn unreachable_view_mut(d: DType) -> ViewMut<'static> {
    crate::with_dtype!(d, T => <T as super::array::Element>::view_mut(&mut []))
}

/// The bytes as mutable elements of a dtype, when aligned and valid (bools must be 0 or 1).
fn typed_view_mut(d: DType, b: &mut [u8]) -> Option<ViewMut<'_>> {
    use bytemuck::{checked, try_cast_slice_mut as cast};
    Some(match d {
        DType::Bool => ViewMut::Bool(checked::try_cast_slice_mut::<u8, bool>(b).ok()?),
        DType::UInt8 => ViewMut::UInt8(b),
        DType::UInt16 => ViewMut::UInt16(cast(b).ok()?),
        DType::UInt32 => ViewMut::UInt32(cast(b).ok()?),
        DType::UInt64 => ViewMut::UInt64(cast(b).ok()?),
        DType::Int8 => ViewMut::Int8(cast(b).ok()?),
        DType::Int16 => ViewMut::Int16(cast(b).ok()?),
        DType::Int32 => ViewMut::Int32(cast(b).ok()?),
        DType::Int64 => ViewMut::Int64(cast(b).ok()?),
        DType::BFloat16 => ViewMut::BFloat16(cast::<u8, bf16>(b).ok()?),
        DType::Float16 => ViewMut::Float16(cast::<u8, f16>(b).ok()?),
        DType::Float32 => ViewMut::Float32(cast(b).ok()?),
        DType::Float64 => ViewMut::Float64(cast(b).ok()?),
        DType::Complex64 => ViewMut::Complex64(cast::<u8, C32>(b).ok()?),
        DType::Complex128 => ViewMut::Complex128(cast::<u8, C64>(b).ok()?),
        _ => return None,
    })
}
