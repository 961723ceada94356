import BooksTrackContract
import Foundation

/// The one-line progress display of `watch`: bar, percentage, counts, rate and ETA. Pure: the
/// caller supplies the rate (``ProgressRate``).
package struct ProgressLine: Sendable, Hashable {
    package var barWidth: Int

    package init(barWidth: Int = 24) {
        self.barWidth = barWidth
    }

    /// `[██████████░░░░░░░░░░░░░░]  42%  420/1000 · 84.0/s · ETA 7 s · processing`.
    package func render(fraction: Double?, processed: Int?, total: Int?, rate: Double?, status: JobState) -> String {
        let known =
            fraction
            ?? {
                guard let processed, let total, total > 0 else { return nil }
                return Double(processed) / Double(total)
            }()
        var parts: [String] = []
        if let known {
            let clamped = min(1, max(0, known))
            let filled = Int((clamped * Double(barWidth)).rounded(.down))
            parts.append(
                "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + "]"
            )
            parts.append(String(format: "%3.0f%%", clamped * 100))
        } else {
            parts.append("[" + String(repeating: "·", count: barWidth) + "]")
        }
        if let processed {
            parts.append(total.map { "\(processed)/\($0)" } ?? "\(processed)")
            if let rate, rate > 0 {
                parts.append(String(format: "%.1f/s", rate))
                if let total, total > processed {
                    parts.append("ETA \(Self.duration(Double(total - processed) / rate))")
                }
            }
        }
        parts.append(status.rawValue)
        return parts.joined(separator: "  ")
    }

    /// `7 s`, `2 m 05 s`, `1 h 03 m`.
    package static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return String(format: "%d m %02d s", whole / 60, whole % 60) }
        return String(format: "%d h %02d m", whole / 3600, (whole % 3600) / 60)
    }
}
