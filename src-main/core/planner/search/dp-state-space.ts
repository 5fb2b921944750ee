/**
 * The states of the suffix DP (suffix-dp.ts) over a group space (group-space.ts): the groups a
 * stage may run on, and how the devices a suffix of stages uses are counted. Pure.
 *
 * Inside a class the devices are handed out in a fixed order, so the devices a suffix uses are
 * known from how many members of each class it uses: one digit per class, written as one number
 * (a usage code) in a mixed radix, digit c of u being ⌊u / stride[c]⌋ mod radix[c]. The first
 * stage of a suffix on usage u takes the last members its class hands out in u: a group of
 * `members` members ending at member `end` of its class starts a suffix on u when u's digit for
 * the class is `end`, and the rest of the suffix then uses u − members·stride[class].
 */
import { groupAllowed, tensorDegreesOf, type GroupSpace } from './group-space.js';
import type { PlannerContext } from '../problem/problem.js';
import type { Schedule } from '../types.js';

/** The devices one stage may run on: members [end − members, end) of a class, at a tensor-parallel degree. */
export interface StageGroup {
  /** The class, an index into the space's classes. */
  cls: number;
  /** The class's members [end − members, end). */
  end: number;
  /** Members of the class the group takes (devices / the class's unit). */
  members: number;
  /** Devices. */
  size: number;
  /** Tensor-parallel degree: size / tp replicas of tp devices. */
  tp: number;
  /** The devices, indices into problem.devices. */
  devs: number[];
}

/** The dimensions of the DP's states, but for the first layer: groups, usage codes, stage counts. */
export interface DpStateSpace {
  groups: StageGroup[];
  /** Per class: the place value of its digit in a usage code. */
  stride: number[];
  /** Per class: its members + 1 (a digit is 0..members). */
  radix: number[];
  /** Usage codes: the product of the radixes. */
  usages: number;
  /** Stage count tracked in the state (1F1B training with groups); else derived or irrelevant. */
  explicitStages: boolean;
  /** Stage counts tracked: 1..stageDim (1 when not tracked). */
  stageDim: number;
  /** Members of every class: the most stages a plan can have. */
  totalMembers: number;
}

/** The state space of a DP over `space` for the problem and schedule. */
export function dpStateSpace(space: GroupSpace, ctx: PlannerContext, schedule: Schedule): DpStateSpace {
  const groups: StageGroup[] = [];
  const stride: number[] = [];
  const radix: number[] = [];
  let usages = 1;
  const degrees = space.name === 'pipeline' ? [1] : tensorDegreesOf(ctx.problem);
  let totalMembers = 0;
  space.classes.forEach((c, cls) => {
    const unit = c.unit ?? 1;
    const count = Math.floor(c.devices.length / unit);
    totalMembers += count;
    stride.push(usages);
    radix.push(count + 1);
    usages *= count + 1;
    for (let end = 1; end <= count; end++) {
      for (let members = 1; members <= Math.min(end, c.maxGroupSize); members++) {
        const size = members * unit;
        for (const tp of degrees) {
          if (groupAllowed(space, size, tp, unit))
            groups.push({ cls, end, members, size, tp, devs: c.devices.slice((end - members) * unit, end * unit) });
        }
      }
    }
  });
  const singles = space.classes.every((c) => c.maxGroupSize <= 1);
  const explicitStages = ctx.problem.mode === 'training' && schedule === '1f1b' && !singles;
  return {
    groups,
    stride,
    radix,
    usages,
    explicitStages,
    stageDim: explicitStages ? Math.min(totalMembers, ctx.problem.layers.length) : 1,
    totalMembers,
  };
}

/**
 * The states a DP over the space would have (layers × groups × usages × stage counts), counted
 * without building the groups: a cluster's hybrid space can have 1e5 groups of 1e2 devices each.
 */
export function dpStateCount(space: GroupSpace, ctx: PlannerContext, schedule: Schedule): number {
  const degrees = space.name === 'pipeline' ? [1] : tensorDegreesOf(ctx.problem);
  let groups = 0;
  let usages = 1;
  let totalMembers = 0;
  for (const c of space.classes) {
    const unit = c.unit ?? 1;
    const count = Math.floor(c.devices.length / unit);
    totalMembers += count;
    usages *= count + 1;
    for (let members = 1; members <= Math.min(count, c.maxGroupSize); members++) {
      const allowed = degrees.filter((tp) => groupAllowed(space, members * unit, tp, unit)).length;
      groups += allowed * (count - members + 1);
    }
  }
  const singles = space.classes.every((c) => c.maxGroupSize <= 1);
  const explicitStages = ctx.problem.mode === 'training' && schedule === '1f1b' && !singles;
  const stageDim = explicitStages ? Math.min(totalMembers, ctx.problem.layers.length) : 1;
  return ctx.problem.layers.length * groups * usages * stageDim;
}
