//! Typed buffers for the 15 dtypes: an owned [`Array`], a borrowed [`View`], a mutable
//! [`ViewMut`], and the [`Element`] trait tying each Rust type to its [`DType`].
//!
//! | dtype | Rust element |
//! | --- | --- |
//! | bool | `bool` |
//! | uint8 … uint64 | `u8` … `u64` |
//! | int8 … int64 | `i8` … `i64` |
//! | bfloat16, float16 | [`half::bf16`], [`half::f16`] |
//! | float32, float64 | `f32`, `f64` |
//! | complex64, complex128 | [`C32`] (`Complex<f32>`), [`C64`] (`Complex<f64>`) |
//!
//! A length-1 array broadcasts against any length (0-d tensors and Python scalars travel as
//! length-1 arrays).
//!
//! ```
//! use promote::kernel::array::{Array, Element};
//! use promote::DType;
//! let a = Array::from(vec![1i8, -2, 3]);
//! assert_eq!(a.dtype(), DType::Int8);
//! assert_eq!(a.len(), 3);
//! assert_eq!(i8::slice(a.view()).unwrap(), &[1, -2, 3]);
//! let z = Array::zeros(DType::Complex64, 2);
//! assert_eq!(z.dtype().itemsize() * z.len(), 16);
//! ```

use half::{bf16, f16};
use num_complex::Complex;

use crate::dtype::DType;

/// complex64: two `f32`.
pub type C32 = Complex<f32>;
/// complex128: two `f64`.
pub type C64 = Complex<f64>;

/// Calls `$body` with `$v` bound to the typed vector/slice inside any `Array`/`View`/`ViewMut`
/// (`$T` names its element type).
#[macro_export]
#[doc(hidden)]
macro_rules! each_dtype {
    ($enum:ident, $x:expr, $v:ident, $T:ident => $body:expr) => {
        match $x {
            $enum::Bool($v) => {
                #[allow(dead_code)]
                type $T = bool;
                $body
            }
            $enum::UInt8($v) => {
                #[allow(dead_code)]
                type $T = u8;
                $body
            }
            $enum::UInt16($v) => {
                #[allow(dead_code)]
                type $T = u16;
                $body
            }
            $enum::UInt32($v) => {
                #[allow(dead_code)]
                type $T = u32;
                $body
            }
            $enum::UInt64($v) => {
                #[allow(dead_code)]
                type $T = u64;
                $body
            }
            $enum::Int8($v) => {
                #[allow(dead_code)]
                type $T = i8;
                $body
            }
            $enum::Int16($v) => {
                #[allow(dead_code)]
                type $T = i16;
                $body
            }
            $enum::Int32($v) => {
                #[allow(dead_code)]
                type $T = i32;
                $body
            }
            $enum::Int64($v) => {
                #[allow(dead_code)]
                type $T = i64;
                $body
            }
            $enum::BFloat16($v) => {
                #[allow(dead_code)]
                type $T = half::bf16;
                $body
            }
            $enum::Float16($v) => {
                #[allow(dead_code)]
                type $T = half::f16;
                $body
            }
            $enum::Float32($v) => {
                #[allow(dead_code)]
                type $T = f32;
                $body
            }
            $enum::Float64($v) => {
                #[allow(dead_code)]
                type $T = f64;
                $body
            }
            $enum::Complex64($v) => {
                #[allow(dead_code)]
                type $T = $crate::kernel::array::C32;
                $body
            }
            $enum::Complex128($v) => {
                #[allow(dead_code)]
                type $T = $crate::kernel::array::C64;
                $body
            }
        }
    };
}

/// Calls `$body` with `$T` bound to the element type of a [`DType`].
#[macro_export]
#[doc(hidden)]
macro_rules! with_dtype {
    ($d:expr, $T:ident => $body:expr) => {
        match $d {
            $crate::DType::Bool => {
                #[allow(dead_code)]
                type $T = bool;
                $body
            }
            $crate::DType::UInt8 => {
                #[allow(dead_code)]
                type $T = u8;
                $body
            }
            $crate::DType::UInt16 => {
                #[allow(dead_code)]
                type $T = u16;
                $body
            }
            $crate::DType::UInt32 => {
                #[allow(dead_code)]
                type $T = u32;
                $body
            }
            $crate::DType::UInt64 => {
                #[allow(dead_code)]
                type $T = u64;
                $body
            }
            $crate::DType::Int8 => {
                #[allow(dead_code)]
                type $T = i8;
                $body
            }
            $crate::DType::Int16 => {
                #[allow(dead_code)]
                type $T = i16;
                $body
            }
            $crate::DType::Int32 => {
                #[allow(dead_code)]
                type $T = i32;
                $body
            }
            $crate::DType::Int64 => {
                #[allow(dead_code)]
                type $T = i64;
                $body
            }
            $crate::DType::BFloat16 => {
                #[allow(dead_code)]
                type $T = half::bf16;
                $body
            }
            $crate::DType::Float16 => {
                #[allow(dead_code)]
                type $T = half::f16;
                $body
            }
            $crate::DType::Float32 => {
                #[allow(dead_code)]
                type $T = f32;
                $body
            }
            $crate::DType::Float64 => {
                #[allow(dead_code)]
                type $T = f64;
                $body
            }
            $crate::DType::Complex64 => {
                #[allow(dead_code)]
                type $T = $crate::kernel::array::C32;
                $body
            }
            $crate::DType::Complex128 => {
                #[allow(dead_code)]
                type $T = $crate::kernel::array::C64;
                $body
            }
            d => $crate::kernel::array::no_element_type(d),
        }
    };
}

/// The fallback of `with_dtype!`: the narrow dtypes (float8, int4, ...) have no element type
/// here; their values live as codes in the narrow codec ([`crate::kernel::narrow`]), and the
/// entry points (`eval`, [`crate::kernel::value::parse_array`], [`crate::kernel::data`],
/// [`crate::kernel::npy`]) refuse them before a typed loop is reached.
#[doc(hidden)]
#[cold]
pub fn no_element_type(d: DType) -> ! {
    unreachable!("{d} has no element type in the typed kernels; the entry points refuse it first")
}

macro_rules! storage {
    ($(#[$m:meta])* $name:ident, $($lt:lifetime)?, $wrap:ident) => {
        $(#[$m])*
        #[derive(Debug)]
        pub enum $name<$($lt)?> {
            #[doc = concat!("`bool` elements, as `bool`.")]
            Bool(storage!(@t $wrap, bool)),
            #[doc = concat!("`uint8` elements, as `u8`.")]
            UInt8(storage!(@t $wrap, u8)),
            #[doc = concat!("`uint16` elements, as `u16`.")]
            UInt16(storage!(@t $wrap, u16)),
            #[doc = concat!("`uint32` elements, as `u32`.")]
            UInt32(storage!(@t $wrap, u32)),
            #[doc = concat!("`uint64` elements, as `u64`.")]
            UInt64(storage!(@t $wrap, u64)),
            #[doc = concat!("`int8` elements, as `i8`.")]
            Int8(storage!(@t $wrap, i8)),
            #[doc = concat!("`int16` elements, as `i16`.")]
            Int16(storage!(@t $wrap, i16)),
            #[doc = concat!("`int32` elements, as `i32`.")]
            Int32(storage!(@t $wrap, i32)),
            #[doc = concat!("`int64` elements, as `i64`.")]
            Int64(storage!(@t $wrap, i64)),
            #[doc = concat!("`bfloat16` elements, as `bf16`.")]
            BFloat16(storage!(@t $wrap, bf16)),
            #[doc = concat!("`float16` elements, as `f16`.")]
            Float16(storage!(@t $wrap, f16)),
            #[doc = concat!("`float32` elements, as `f32`.")]
            Float32(storage!(@t $wrap, f32)),
            #[doc = concat!("`float64` elements, as `f64`.")]
            Float64(storage!(@t $wrap, f64)),
            #[doc = concat!("`complex64` elements, as `C32`.")]
            Complex64(storage!(@t $wrap, C32)),
            #[doc = concat!("`complex128` elements, as `C64`.")]
            Complex128(storage!(@t $wrap, C64)),
        }
    };
    (@t Vec, $t:ty) => { Vec<$t> };
    (@t Ref, $t:ty) => { &'a [$t] };
    (@t Mut, $t:ty) => { &'a mut [$t] };
}

storage!(
    /// An owned one-dimensional buffer of one of the 15 dtypes.
    Array, , Vec
);
storage!(
    /// A borrowed one-dimensional buffer.
    View, 'a, Ref
);
storage!(
    /// A mutable borrowed one-dimensional buffer.
    ViewMut, 'a, Mut
);

impl Clone for Array {
    fn clone(&self) -> Self {
        each_dtype!(Array, self, v, T => Array::from(v.clone()))
    }
}

impl PartialEq for Array {
    /// Bitwise equality of the buffers, except that every NaN equals every NaN (of any sign
    /// or payload): the comparison the recorded-value tests use.
    fn eq(&self, other: &Self) -> bool {
        self.dtype() == other.dtype()
            && self.len() == other.len()
            && each_dtype!(Array, self, v, T => {
                let o = T::slice(other.view()).expect("same dtype");
                v.iter().zip(o).all(|(a, b)| a.same_bits(*b))
            })
    }
}

impl<'a> Clone for View<'a> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<'a> Copy for View<'a> {}

/// A Rust type that stores one of the 15 dtypes.
///
/// ```
/// use promote::{kernel::{Array, Element}, DType};
/// assert_eq!(<i16 as Element>::DTYPE, DType::Int16);
/// let a = i16::array(vec![1, 2]);
/// assert_eq!(i16::slice(a.view()), Some(&[1i16, 2][..]));
/// assert_eq!(f32::slice(a.view()), None);
/// ```
pub trait Element: Copy + Send + Sync + Default + PartialEq + std::fmt::Debug + 'static {
    /// Its dtype.
    const DTYPE: DType;
    /// Wrap a vector.
    ///
    /// ```
    /// use promote::kernel::{Array, Element};
    /// assert_eq!(u8::array(vec![1, 2]), Array::from(vec![1u8, 2]));
    /// ```
    fn array(v: Vec<Self>) -> Array;
    /// Wrap a slice.
    ///
    /// ```
    /// use promote::{kernel::Element, DType};
    /// assert_eq!(f64::view(&[1.0, 2.0]).dtype(), DType::Float64);
    /// ```
    fn view(s: &[Self]) -> View<'_>;
    /// Wrap a mutable slice.
    ///
    /// ```
    /// use promote::{kernel::Element, DType};
    /// let mut xs = [1i8, 2];
    /// assert_eq!(i8::view_mut(&mut xs).dtype(), DType::Int8);
    /// ```
    fn view_mut(s: &mut [Self]) -> ViewMut<'_>;
    /// The slice inside a view of this dtype.
    ///
    /// ```
    /// use promote::kernel::{Array, Element};
    /// let a = Array::from(vec![3u64]);
    /// assert_eq!(u64::slice(a.view()), Some(&[3u64][..]));
    /// ```
    fn slice(v: View<'_>) -> Option<&[Self]>;
    /// The mutable slice inside a view of this dtype.
    ///
    /// ```
    /// use promote::kernel::{Array, Element};
    /// let mut a = Array::from(vec![3u64]);
    /// u64::slice_mut(a.view_mut()).unwrap()[0] = 4;
    /// assert_eq!(a, Array::from(vec![4u64]));
    /// ```
    fn slice_mut(v: ViewMut<'_>) -> Option<&mut [Self]>;
    /// Equal bit patterns, or both NaN.
    ///
    /// ```
    /// use promote::kernel::Element;
    /// assert!(f32::NAN.same_bits(-f32::NAN));
    /// assert!(!0.0f32.same_bits(-0.0));
    /// ```
    fn same_bits(self, other: Self) -> bool;
}

macro_rules! element {
    ($t:ty, $variant:ident, |$a:ident, $b:ident| $same:expr) => {
        impl Element for $t {
            const DTYPE: DType = DType::$variant;
            #[inline]
            fn array(v: Vec<Self>) -> Array {
                Array::$variant(v)
            }
            #[inline]
            fn view(s: &[Self]) -> View<'_> {
                View::$variant(s)
            }
            #[inline]
            fn view_mut(s: &mut [Self]) -> ViewMut<'_> {
                ViewMut::$variant(s)
            }
            #[inline]
            fn slice(v: View<'_>) -> Option<&[Self]> {
                match v {
                    View::$variant(s) => Some(s),
                    _ => None,
                }
            }
            #[inline]
            fn slice_mut(v: ViewMut<'_>) -> Option<&mut [Self]> {
                match v {
                    ViewMut::$variant(s) => Some(s),
                    _ => None,
                }
            }
            #[inline]
            fn same_bits(self, other: Self) -> bool {
                let ($a, $b) = (self, other);
                $same
            }
        }
        impl From<Vec<$t>> for Array {
            fn from(v: Vec<$t>) -> Array {
                Array::$variant(v)
            }
        }
    };
}

element!(bool, Bool, |a, b| a == b);
element!(u8, UInt8, |a, b| a == b);
element!(u16, UInt16, |a, b| a == b);
element!(u32, UInt32, |a, b| a == b);
element!(u64, UInt64, |a, b| a == b);
element!(i8, Int8, |a, b| a == b);
element!(i16, Int16, |a, b| a == b);
element!(i32, Int32, |a, b| a == b);
element!(i64, Int64, |a, b| a == b);
element!(bf16, BFloat16, |a, b| a.to_bits() == b.to_bits()
    || (a.is_nan() && b.is_nan()));
element!(f16, Float16, |a, b| a.to_bits() == b.to_bits()
    || (a.is_nan() && b.is_nan()));
element!(f32, Float32, |a, b| a.to_bits() == b.to_bits()
    || (a.is_nan() && b.is_nan()));
element!(f64, Float64, |a, b| a.to_bits() == b.to_bits()
    || (a.is_nan() && b.is_nan()));
element!(C32, Complex64, |a, b| a.re.same_bits(b.re)
    && a.im.same_bits(b.im));
element!(C64, Complex128, |a, b| a.re.same_bits(b.re)
    && a.im.same_bits(b.im));

impl Array {
    /// `n` zeros (false, 0, +0.0) of a dtype.
    ///
    /// The memory comes zeroed from the allocator (for large arrays: fresh pages from the
    /// OS, touched first by whichever thread writes them), and buffers of at least
    /// [`HUGE_PAGE_MIN_BYTES`] ask Linux for transparent huge pages, as NumPy does, so that
    /// filling them costs a page fault per 2 MB rather than per 4 KB.
    ///
    /// # Panics
    /// For a narrow dtype (`!d.is_classic()`: float8, int4, ...), which has no element type
    /// here; their values are the codes of [`crate::kernel::narrow`].
    ///
    /// ```
    /// use promote::{kernel::Array, DType};
    /// assert_eq!(Array::zeros(DType::Int16, 2), Array::from(vec![0i16, 0]));
    /// ```
    pub fn zeros(d: DType, n: usize) -> Array {
        // SAFETY: every one of the 15 element types is valid as all-zero bytes (false, 0,
        // +0.0, 0+0i), and `with_dtype!` only names those types.
        with_dtype!(d, T => Array::from(unsafe { zeroed_vec::<T>(n) }))
    }
    /// The dtype.
    ///
    /// ```
    /// use promote::{kernel::Array, DType};
    /// assert_eq!(Array::from(vec![1.5f32]).dtype(), DType::Float32);
    /// ```
    pub fn dtype(&self) -> DType {
        each_dtype!(Array, self, _v, T => T::DTYPE)
    }
    /// Number of elements.
    ///
    /// ```
    /// assert_eq!(promote::kernel::Array::from(vec![1u8, 2, 3]).len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        each_dtype!(Array, self, v, T => v.len())
    }
    /// No elements.
    ///
    /// ```
    /// assert!(promote::kernel::Array::from(Vec::<bool>::new()).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Borrow.
    ///
    /// ```
    /// use promote::{kernel::Array, DType};
    /// let a = Array::from(vec![1i64, 2]);
    /// assert_eq!((a.view().dtype(), a.view().len()), (DType::Int64, 2));
    /// ```
    pub fn view(&self) -> View<'_> {
        each_dtype!(Array, self, v, T => T::view(v))
    }
    /// Borrow mutably.
    ///
    /// ```
    /// use promote::kernel::{Array, Element};
    /// let mut a = Array::from(vec![1i32, 2]);
    /// i32::slice_mut(a.view_mut()).unwrap()[0] = 7;
    /// assert_eq!(a, Array::from(vec![7i32, 2]));
    /// ```
    pub fn view_mut(&mut self) -> ViewMut<'_> {
        each_dtype!(Array, self, v, T => T::view_mut(v))
    }
    /// Size of the buffer in bytes.
    ///
    /// ```
    /// assert_eq!(promote::kernel::Array::from(vec![1.0f64, 2.0]).nbytes(), 16);
    /// ```
    pub fn nbytes(&self) -> usize {
        self.len() * self.dtype().itemsize()
    }
}

/// Buffers of at least this many bytes are advised to use transparent huge pages.
pub const HUGE_PAGE_MIN_BYTES: usize = 4 << 20;

/// A vector of `n` all-zero-bytes elements, from `alloc_zeroed` (calloc: large buffers are
/// fresh, untouched pages).
///
/// # Safety
///
/// All-zero bytes must be a valid `T`.
unsafe fn zeroed_vec<T>(n: usize) -> Vec<T> {
    let layout = std::alloc::Layout::array::<T>(n).expect("array size overflows isize");
    if layout.size() == 0 {
        return Vec::new();
    }
    // SAFETY: the layout has a nonzero size.
    let p = unsafe { std::alloc::alloc_zeroed(layout) } as *mut T;
    if p.is_null() {
        std::alloc::handle_alloc_error(layout);
    }
    if layout.size() >= HUGE_PAGE_MIN_BYTES {
        advise_huge_pages(p as *mut u8, layout.size());
    }
    // SAFETY: allocated by the global allocator with the layout of `[T; n]`, all `n`
    // elements initialized (zero bytes, valid by the caller's promise).
    unsafe { Vec::from_raw_parts(p, n, n) }
}

/// Ask Linux to back the 2 MB-aligned part of `[p, p + len)` with transparent huge pages
/// (`madvise(MADV_HUGEPAGE)`; a hint: where THP is off it does nothing).
fn advise_huge_pages(p: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = (p as usize).next_multiple_of(HUGE);
        let end = (p as usize + len) & !(HUGE - 1);
        if end > start {
            // SAFETY: the range lies inside an allocation this process owns; MADV_HUGEPAGE
            // changes no contents, only how the pages are backed.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (p, len);
}

impl<'a> View<'a> {
    /// The dtype.
    ///
    /// ```
    /// use promote::{kernel::Array, DType};
    /// assert_eq!(Array::from(vec![true]).view().dtype(), DType::Bool);
    /// ```
    pub fn dtype(&self) -> DType {
        each_dtype!(View, self, _v, T => T::DTYPE)
    }
    /// Number of elements.
    ///
    /// ```
    /// assert_eq!(promote::kernel::Array::from(vec![1u16, 2]).view().len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        each_dtype!(View, self, v, T => v.len())
    }
    /// No elements.
    ///
    /// ```
    /// assert!(!promote::kernel::Array::from(vec![1u16]).view().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Elements `start..end`.
    ///
    /// # Panics
    ///
    /// Unless `start <= end <= self.len()`, as slice indexing does; [`View::get`] returns
    /// `None` instead.
    ///
    /// ```
    /// use promote::kernel::Array;
    /// let a = Array::from(vec![1u8, 2, 3]);
    /// assert_eq!(a.view().slice(1, 3).to_array(), Array::from(vec![2u8, 3]));
    /// ```
    pub fn slice(&self, start: usize, end: usize) -> View<'a> {
        each_dtype!(View, *self, v, T => T::view(&v[start..end]))
    }
    /// Elements `start..end`, or `None` unless `start <= end <= self.len()`.
    ///
    /// ```
    /// use promote::kernel::array::Array;
    /// let a = Array::from(vec![1u8, 2, 3]);
    /// assert_eq!(a.view().get(1, 3).map(|v| v.len()), Some(2));
    /// assert!(a.view().get(2, 1).is_none());
    /// assert!(a.view().get(0, 4).is_none());
    /// ```
    pub fn get(&self, start: usize, end: usize) -> Option<View<'a>> {
        (start <= end && end <= self.len()).then(|| self.slice(start, end))
    }
    /// An owned copy.
    ///
    /// ```
    /// use promote::kernel::Array;
    /// let a = Array::from(vec![1i8, -1]);
    /// assert_eq!(a.view().to_array(), a);
    /// ```
    pub fn to_array(&self) -> Array {
        each_dtype!(View, *self, v, T => Array::from(v.to_vec()))
    }
}

impl<'a> ViewMut<'a> {
    /// The dtype.
    ///
    /// ```
    /// use promote::{kernel::Array, DType};
    /// let mut a = Array::from(vec![1u32]);
    /// assert_eq!(a.view_mut().dtype(), DType::UInt32);
    /// ```
    pub fn dtype(&self) -> DType {
        each_dtype!(ViewMut, self, _v, T => T::DTYPE)
    }
    /// Number of elements.
    ///
    /// ```
    /// let mut a = promote::kernel::Array::from(vec![1u32, 2]);
    /// assert_eq!(a.view_mut().len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        each_dtype!(ViewMut, self, v, T => v.len())
    }
    /// No elements.
    ///
    /// ```
    /// let mut a = promote::kernel::Array::from(vec![1u32, 2]);
    /// assert!(!a.view_mut().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Reborrow.
    ///
    /// ```
    /// let mut a = promote::kernel::Array::from(vec![1u32, 2]);
    /// let mut v = a.view_mut();
    /// assert_eq!(v.reborrow().len(), 2);
    /// assert_eq!(v.len(), 2);
    /// ```
    pub fn reborrow(&mut self) -> ViewMut<'_> {
        each_dtype!(ViewMut, self, v, T => T::view_mut(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dtype_has_an_element() {
        for d in DType::classic() {
            let a = Array::zeros(d, 3);
            assert_eq!(a.dtype(), d);
            assert_eq!(a.len(), 3);
            assert_eq!(a.view().dtype(), d);
            assert_eq!(a.view().slice(1, 3).len(), 2);
            with_dtype!(d, T => assert_eq!(std::mem::size_of::<T>(), d.itemsize()));
            assert_eq!(a, a.clone());
        }
    }

    #[test]
    fn large_zeros_are_zero_and_drop_cleanly() {
        for d in [
            DType::Float64,
            DType::Complex64,
            DType::Float16,
            DType::Bool,
        ] {
            let n = (HUGE_PAGE_MIN_BYTES / d.itemsize()) * 2 + 3;
            let a = Array::zeros(d, n);
            assert_eq!(a.len(), n);
            assert_eq!(a.view().slice(n - 1, n).to_array(), Array::zeros(d, 1));
        }
        assert!(Array::zeros(DType::Int8, 0).is_empty());
    }

    #[test]
    #[should_panic(expected = "slice index starts at 5 but ends at 2")]
    fn a_reversed_slice_panics_as_documented() {
        let a = Array::zeros(DType::Int8, 8);
        let _ = a.view().slice(5, 2);
    }

    #[test]
    fn get_checks_the_range() {
        let a = Array::zeros(DType::Int8, 8);
        assert!(a.view().get(5, 2).is_none());
        assert!(a.view().get(7, 9).is_none());
        assert_eq!(a.view().get(8, 8).unwrap().len(), 0);
    }

    #[test]
    fn nan_equals_nan_but_signed_zeros_differ() {
        assert_eq!(Array::from(vec![f64::NAN]), Array::from(vec![-f64::NAN]));
        assert_ne!(Array::from(vec![0.0f64]), Array::from(vec![-0.0f64]));
        assert_ne!(Array::from(vec![0.0f32]), Array::from(vec![0.0f64]));
    }
}
