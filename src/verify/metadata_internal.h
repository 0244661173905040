// Pieces of the metadata check shared by its files.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kerchunk/util/checked_math.h"
#include "kerchunk/verify/report.h"
#include "verify/catalog.h"

namespace kerchunk::verify::internal {

/// Case logs of the metadata check keyed by node path (array or group), in first-use order.
class NodeLogs {
 public:
  explicit NodeLogs(const Report& report) : report_(report) {}
  CaseLog& operator[](std::string_view path);
  void AddTo(Report& report);

 private:
  const Report& report_;
  std::vector<CaseLog> logs_;
  std::unordered_map<std::string, size_t> index_;
};

/// Validates one .zarray entry and describes the array (see ArrayInfo); problems go to `log`.
ArrayInfo AnalyzeZarray(std::string path, const Entry& entry, const ArrayRefs* refs, CaseLog& log);

/// .zattrs, .zgroup and .zmetadata documents, and the groups that hold each array.
void CheckNodes(const ReferenceSet& refs, const Catalog& catalog, NodeLogs& logs);

}  // namespace kerchunk::verify::internal
