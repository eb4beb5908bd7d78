import { expect } from "chai";

import { ISSUE_TYPES, IssueType } from "@compute-capacity/sdk";

describe("the SDK's redemption issue types (sdk/redemption.ts)", function () {
  it("names every IRedemptionManager.IssueType value at its index, and nothing more", function () {
    expect(ISSUE_TYPES[Number(IssueType.NotDelivered)]).to.equal("not_delivered");
    expect(ISSUE_TYPES[Number(IssueType.AccessFailure)]).to.equal("access_failure");
    expect(ISSUE_TYPES[Number(IssueType.ResourceMismatch)]).to.equal("resource_mismatch");
    expect(ISSUE_TYPES[Number(IssueType.PerformanceShortfall)]).to.equal("performance_shortfall");
    expect(ISSUE_TYPES[Number(IssueType.Other)]).to.equal("other");
    expect(ISSUE_TYPES).to.have.length(Object.keys(IssueType).length);
  });
});
