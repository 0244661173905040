// --against: the semantic difference of two reference sets (plain or packed, any producer).
// Keys are matched by name whatever the model holds them as (a chunk column or a plain entry);
// metadata documents are compared as parsed JSON; URLs are compared as the files they name
// (after the --rewrite rules), and an inline chunk equals a byte range holding the same bytes.
#pragma once

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/verify/report.h"
#include "kerchunk/verify/verify.h"
#include "verify/checks.h"

namespace kerchunk::verify::internal {

/// Loads options.against and adds Check::kAgainst cases (one per array or metadata node) and
/// the DiffTotals to the report. Fails only when the other set cannot be loaded.
Status CompareWithOther(const ReferenceSet& refs, const VerifyOptions& options,
                        const CheckContext& context, Report& report);

}  // namespace kerchunk::verify::internal
