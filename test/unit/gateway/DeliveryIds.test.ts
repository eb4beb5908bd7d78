import { expect } from "chai";

import { DeliveryIds, deliveryIds } from "../../../gateway/webhooks/delivery-id.js";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The 48-bit millisecond time of a version 7 id. */
const timeOf = (id: string) => parseInt(id.replace(/-/g, "").slice(0, 12), 16);
const counterOf = (id: string) => parseInt(id.replace(/-/g, "").slice(13, 16), 16);

describe("Delivery ids (gateway/webhooks/delivery-id.ts)", function () {
  it("are UUIDs of version 7 and RFC 9562's variant, carrying the time they were made", function () {
    const before = Date.now();
    const id = deliveryIds.next();
    expect(id).to.match(UUID_V7);
    expect(timeOf(id)).to.be.within(before, Date.now() + 1);
  });

  it("made within one millisecond, sort in the order they were made, as text (the workers' tie-break)", function () {
    const ids = new DeliveryIds(() => 1_796_000_000_000);
    const made = Array.from({ length: 200 }, () => ids.next());
    expect(new Set(made).size).to.equal(200);
    expect([...made].sort()).to.deep.equal(made);
    expect(made.map(timeOf).every((ms) => ms === 1_796_000_000_000)).to.equal(true);
    expect(made.slice(0, 3).map(counterOf)).to.deep.equal([0, 1, 2]);
    // as PostgreSQL compares them under the C collation and JavaScript with < (worker.ts's order)
    for (let i = 1; i < made.length; i++) expect(made[i - 1] < made[i]).to.equal(true);
  });

  it("stay in order when a millisecond holds more than 4,096 of them, or the clock goes back", function () {
    let now = 1_796_000_000_000;
    const ids = new DeliveryIds(() => now);
    const made = Array.from({ length: 5_000 }, () => ids.next());
    expect(counterOf(made[4_095])).to.equal(0xfff);
    expect(timeOf(made[4_096])).to.equal(now + 1);
    now -= 10_000;
    made.push(ids.next(), ids.next());
    now += 20_000;
    made.push(ids.next());
    expect([...made].sort()).to.deep.equal(made);
    expect(timeOf(made.at(-1)!)).to.equal(now);
  });

  it("start a new millisecond's count at zero", function () {
    let now = 1_796_000_000_000;
    const ids = new DeliveryIds(() => now);
    ids.next();
    ids.next();
    now++;
    expect(counterOf(ids.next())).to.equal(0);
  });
});
