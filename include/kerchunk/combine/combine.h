// Concatenating reference sets along one dimension: the multi-file step of `kerchunk scan` and
// the whole of `kerchunk combine` (merging shard outputs). Semantics follow Python kerchunk's
// MultiZarrToZarr(concat_dims=[dim], identical_dims=[...]); docs/differences.md ("combine")
// lists where and why they differ.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/codecs/chunk_reader.h"  // UrlToPath
#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

/// What combine does when an attribute that changes decoded values (kValueAttributes in
/// combine/value_attributes.h: scale_factor, add_offset, _FillValue, ...) differs between parts
/// for a concatenated variable. The combined index has one .zattrs per variable, so a CF reader
/// decodes every part's values with the first part's attributes.
enum class OnAttributeConflict {
  kError,  ///< InvalidArgument naming the part, the variable, the attribute and both values
  kFirst,  ///< keep the first part's values, with one warning per part listing what differs
};

/// What combine does where inputs cover the same positions of the concat dimension.
enum class OnOverlap {
  /// A complete overlap (every position of one input is also covered by another: duplicate
  /// files, or an ensemble scanned without its member dimension) is an InvalidArgument naming
  /// both inputs, with a hint when they differ in an attribute that looks like a dimension
  /// (variant_label, realization, member_id, experiment_id); a partial overlap (runs sharing a
  /// boundary step) keeps the later input's references, with a warning.
  kDefault,
  kError,    ///< any overlap is an InvalidArgument naming both inputs
  kLater,    ///< the later input (in input order) wins everywhere, with a warning per overlap
  kEarlier,  ///< the earlier input wins everywhere, with a warning per overlap
};

/// Where the values of a concat dimension come from (`--coord DIM=SPEC`), as MultiZarrToZarr's
/// coo_map selectors.
struct CoordinateSource {
  enum class Kind {
    kGlobalAttribute,    ///< "attr:NAME": a global attribute of each input
    kVariableAttribute,  ///< "vattr:VAR:NAME": an attribute of variable VAR of each input
    kPath,               ///< "path:REGEX": the first capture group (else the match) in the
                         ///< input's first URL
    kIndex,              ///< "index": the input's position in the input list (0, 1, ...)
    kData,               ///< "data:VAR": the values of variable VAR, which has the (existing)
                         ///< dimension; replaces the dimension's own coordinate values
  };
  Kind kind = Kind::kIndex;
  std::string variable;  ///< kVariableAttribute, kData
  std::string name;      ///< kGlobalAttribute, kVariableAttribute
  std::string regex;     ///< kPath (ECMAScript syntax)
};

/// Parses "attr:NAME", "vattr:VAR:NAME", "path:REGEX", "index" or "data:VAR". InvalidArgument
/// quoting `spec` and the accepted forms; a REGEX that does not compile is one too.
Result<CoordinateSource> ParseCoordinateSource(std::string_view spec);

struct CombineOptions {
  /// The dimension to concatenate along ("time" when empty): a dimension the parts have, or a
  /// new one when `coordinates` says where its values come from.
  std::string concat_dim;
  /// Further concat dimensions outside concat_dim, outermost first (`--concat-dim member
  /// --concat-dim time`: outer_dims {"member"}, concat_dim "time"). Each must be a new
  /// dimension with an entry in `coordinates`.
  std::vector<std::string> outer_dims;
  /// Per dimension, where its values come from; a dimension without an entry uses its
  /// coordinate variable (existing dimensions only).
  std::map<std::string, CoordinateSource, std::less<>> coordinates;
  /// Variables that must not be concatenated and are taken from the first part; variables
  /// without the concat dimension are always taken from the first part.
  std::vector<std::string> identical_dims;
  /// Compare the variables taken from the first part across all parts (values, not just
  /// metadata) and fail naming the first part and variable that differ.
  bool check_identical = false;
  /// Value attributes that differ between parts: an error (default) or the first part's kept.
  OnAttributeConflict on_attribute_conflict = OnAttributeConflict::kError;
  /// Inputs that cover the same positions along the concat dimension.
  OnOverlap on_overlap = OnOverlap::kDefault;
  /// How to read bytes of referenced chunks (concat coordinate values, --check-identical);
  /// codecs::DefaultUrlToPath when empty.
  UrlToPath url_to_path;
  /// Threads reading the parts' coordinate values (0: hardware concurrency).
  unsigned threads = 0;
};

/// Concatenates `parts` (each one file's references, or an earlier combine's output) along
/// options.concat_dim:
///  - The concat coordinate (the variable named like the dimension) is read from every part
///    (decoded with its codecs), converted to the first part's CF units when "units" or
///    "calendar" differ (exactly; see cf_time.h), and its sorted distinct values become the
///    combined coordinate, stored inline as one uncompressed chunk. A part lands at the
///    position of its first value; its values must increase strictly and must not interleave
///    with another part's. Where parts overlap, options.on_overlap decides: by default a part
///    whose positions are all covered by others is an error, and elsewhere each key keeps the
///    later part's reference (in input order), as MultiZarrToZarr does. Without a coordinate
///    variable, parts follow each other in input order. The coordinate's CF bounds variable (its
///    "bounds" attribute) is converted the same way and stored inline when any part counts it in
///    other units or stores it with another chunk shape; bounds that cannot be converted are an
///    error (OnAttributeConflict::kFirst: kept in each part's units, with a warning).
///  - Variables with the concat dimension (and not in identical_dims) grow along it; their
///    chunk keys are renumbered. A part must start and end on a chunk boundary along the
///    dimension (the last may end anywhere); otherwise zarr cannot express the result without
///    rechunking and the error says so.
///  - Everything else — other variables, group and global metadata, attributes — comes from
///    the first part (in input order), as MultiZarrToZarr takes it. Attributes that change the
///    decoded values of a concatenated variable or the coordinate (scale_factor, add_offset,
///    _FillValue also as the .zarray fill_value, missing_value, valid_*, _Unsigned, calendar,
///    units; the coordinate's units and calendar are converted instead) must agree by value and
///    JSON number kind in every part, or options.on_attribute_conflict decides.
/// A new dimension (outer_dims, or a concat_dim no variable has, each with a CoordinateSource):
/// parts are grouped by their value (numbers in increasing order, strings in input order; a
/// group of several parts is combined along the remaining dimensions first, and with none left
/// it is a complete overlap, handled as options.on_overlap says). Every variable gains the new
/// leading dimension with chunk extent 1 (keys renumbered "0.0.0" -> "<group>.0.0.0") except
/// dimension coordinates (1-D, named like their dimension), which must hold the same values in
/// every group, identical_dims, and with check_identical every variable that holds the same
/// values in every group. The new coordinate is stored inline: "<i8" or "<f8" numbers, or
/// fixed-width unicode "<U<n>" strings.
/// Every part must have the same variables; a concatenated variable must have the same dtype,
/// codecs, chunk shape, dimensions and non-concat shape in every part. Errors are
/// InvalidArgument (Unsupported for coordinates that are not numbers) and name the part ("part
/// 3 (<its first URL>)") and the variable. Combining is associative for parts whose coordinate
/// ranges do not interleave and whose unit conversions are exact: combine(combine(A, B), combine(C,
/// D)) equals combine(A, B, C, D), which is what sharded scans rely on.
Result<ReferenceSet> CombineReferenceSets(std::vector<ReferenceSet> parts,
                                          const CombineOptions& options,
                                          std::vector<std::string>* warnings = nullptr);

}  // namespace kerchunk
