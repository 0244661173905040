#include "kerchunk/verify/report.h"

#include <algorithm>

namespace kerchunk::verify {

std::string_view CheckName(Check check) {
  switch (check) {
    case Check::kDocument:
      return "document";
    case Check::kMetadata:
      return "metadata";
    case Check::kXarray:
      return "xarray";
    case Check::kKeys:
      return "keys";
    case Check::kRanges:
      return "ranges";
    case Check::kFiles:
      return "files";
    case Check::kDecode:
      return "decode";
    case Check::kSource:
      return "source";
    case Check::kAgainst:
      return "against";
  }
  return "unknown";
}

void CaseLog::Fail(std::string key, std::string message) {
  ++failures_;
  if (findings_.size() < keep_) findings_.push_back({std::move(key), std::move(message)});
}

void CaseLog::Skip(uint64_t n, std::string_view reason) {
  if (n == 0) return;
  skipped_ += n;
  if (skip_reason_.empty()) skip_reason_ = std::string(reason);
}

void CaseLog::Merge(CaseLog&& other) {
  examined_ += other.examined_;
  failures_ += other.failures_;
  for (Finding& f : other.findings_) {
    if (findings_.size() >= keep_) break;
    findings_.push_back(std::move(f));
  }
  Skip(other.skipped_, other.skip_reason_);
}

void Report::Add(CaseLog log) {
  MarkRun(log.check());
  std::string id(1, static_cast<char>(log.check()));
  id += log.name();
  auto [it, inserted] = case_index_.try_emplace(std::move(id), cases_.size());
  if (!inserted) {
    cases_[it->second].Merge(std::move(log));
    return;
  }
  cases_.push_back(std::move(log));
}

std::vector<const CaseLog*> Report::Cases() const {
  std::vector<const CaseLog*> out;
  out.reserve(cases_.size());
  for (const CaseLog& c : cases_) out.push_back(&c);
  std::stable_sort(out.begin(), out.end(),
                   [](const CaseLog* a, const CaseLog* b) { return a->check() < b->check(); });
  return out;
}

uint64_t Report::Failures() const {
  uint64_t n = 0;
  for (const CaseLog& c : cases_) n += advisory(c.check()) ? 0 : c.failures();
  return n;
}

uint64_t Report::Warnings() const {
  uint64_t n = 0;
  for (const CaseLog& c : cases_) n += advisory(c.check()) ? c.failures() : 0;
  return n;
}

uint64_t Report::Failures(Check check) const {
  uint64_t n = 0;
  for (const CaseLog& c : cases_) n += c.check() == check ? c.failures() : 0;
  return n;
}

uint64_t Report::Examined(Check check) const {
  uint64_t n = 0;
  for (const CaseLog& c : cases_) n += c.check() == check ? c.examined() : 0;
  return n;
}

uint64_t Report::Skipped(Check check) const {
  uint64_t n = 0;
  for (const CaseLog& c : cases_) n += c.check() == check ? c.skipped() : 0;
  return n;
}

}  // namespace kerchunk::verify
