import BooksTrackContract
import Testing

@testable import BooksTrackServer

/// The engine's pipelines are the contract's `Pipeline`s: their stored and sent names, the v3
/// route segment the client builds (`Pipeline.v3Segment`) and the v3 status `type` all come from it.
@Suite struct JobPipelineTests {
    @Test(arguments: JobPipeline.allCases)
    func everyNameIsTheContractsPipeline(_ pipeline: JobPipeline) {
        #expect(pipeline.rawValue == pipeline.wire.rawValue)
        #expect(JobPipeline(rawValue: pipeline.wire.rawValue) == pipeline)
        let route = V3Pipeline(pipeline)
        #expect(route.engine == pipeline)
        #expect(route.rawValue == pipeline.wire.v3Segment, "the client asks /v3/jobs/\(pipeline.wire.v3Segment)")
        #expect(route.type == pipeline.wire.rawValue)
    }

    @Test func unknownNamesAreNotPipelines() {
        #expect(JobPipeline(rawValue: "csvImport") == nil)
        #expect(JobPipeline(rawValue: "") == nil)
    }
}
