import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct ImmediateSchedulerTests {
    @Test func runsTheActionSynchronouslyOnTheCallingThread() {
        let scheduler = ImmediateScheduler()
        let caller = ThreadID.current
        let log = ScheduledLog<ThreadID>()

        let disposable = scheduler.schedule { log.append(ThreadID.current) }

        #expect(log.items == [caller])
        #expect(disposable == nil)
    }

    @Test func nestedActionsRunInsideTheOuterOne() {
        let scheduler = ImmediateScheduler()
        let log = ScheduledLog<String>()

        scheduler.schedule {
            log.append("outer start")
            scheduler.schedule { log.append("inner") }
            log.append("outer end")
        }

        #expect(log.items == ["outer start", "inner", "outer end"])
    }
}
