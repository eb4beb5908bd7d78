import type {
  AddressLike,
  BaseContract,
  BigNumberish,
  BytesLike,
  ContractTransaction,
  ContractTransactionResponse,
  FunctionFragment,
  Indexed,
  Overrides,
  Result,
} from "ethers";

/**
 * Types read off the generated `as const` ABIs (`sdk/abis/`), in the value shapes ethers v6 takes
 * and returns: integers in as `BigNumberish` and out as `bigint`, addresses and byte strings as
 * hex `string`s, structs in as objects by field name and out as ethers' `Result` (a tuple with the
 * fields also by name), arrays as arrays. This is what TypeChain generated from the same ABIs,
 * without a code generator or its factories: a contract's methods, a call's arguments and result,
 * an event's arguments, all checked by `tsc` against the ABI.
 */

/** A parameter of an ABI entry (an input, an output, an event field, a struct's component). */
export interface AbiParameter {
  readonly name?: string;
  readonly type: string;
  readonly components?: readonly AbiParameter[];
  readonly indexed?: boolean;
}

/** One entry of an ABI as the generated modules hold it. */
export interface AbiItem {
  readonly type: string;
  readonly name?: string;
  readonly inputs?: readonly AbiParameter[];
  readonly outputs?: readonly AbiParameter[];
  readonly stateMutability?: string;
  readonly anonymous?: boolean;
}

/** An ABI: a generated module's `as const` array. */
export type Abi = readonly AbiItem[];

type Integer = `uint${string}` | `int${string}`;

/** Depth guard for nested structs: past it, values are `unknown`. */
type Depth = [never, 0, 1, 2, 3, 4, 5, 6];

/** The value ethers returns for a parameter of type `T` (with `components` for tuples). */
type OutputOf<T extends string, C, D extends number> = [D] extends [never]
  ? unknown
  : T extends `${infer Element}[]`
    ? OutputOf<Element, C, D>[]
    : T extends `${infer Element}[${number}]`
      ? OutputOf<Element, C, D>[]
      : T extends "tuple"
        ? C extends readonly AbiParameter[]
          ? StructOutput<C, Depth[D]>
          : Result
        : T extends Integer
          ? bigint
          : T extends "bool"
            ? boolean
            : string; // address, string, bytes, bytesN

/** The value ethers accepts for a parameter of type `T`. */
type InputOf<T extends string, C, D extends number> = [D] extends [never]
  ? unknown
  : T extends `${infer Element}[]`
    ? readonly InputOf<Element, C, D>[]
    : T extends `${infer Element}[${number}]`
      ? readonly InputOf<Element, C, D>[]
      : T extends "tuple"
        ? C extends readonly AbiParameter[]
          ? StructInput<C, Depth[D]>
          : Record<string, unknown>
        : T extends Integer
          ? BigNumberish
          : T extends "bool"
            ? boolean
            : T extends "address"
              ? AddressLike
              : T extends "string"
                ? string
                : BytesLike; // bytes, bytesN

/** A struct as ethers returns it: its fields in order, and by name. */
type StructOutput<C extends readonly AbiParameter[], D extends number> = {
  -readonly [K in keyof C]: C[K] extends AbiParameter ? OutputOf<C[K]["type"], C[K]["components"], D> : never;
} & {
  [P in C[number] as P["name"] extends `${infer N}` ? (N extends "" ? never : N) : never]: OutputOf<
    P["type"],
    P["components"],
    D
  >;
};

/** A struct as ethers takes it: an object by field name. */
type StructInput<C extends readonly AbiParameter[], D extends number> = {
  [P in C[number] as P["name"] extends `${infer N}` ? N : never]: InputOf<P["type"], P["components"], D>;
};

/** The value ethers returns for `P`. */
export type AbiParameterOutput<P extends AbiParameter> = OutputOf<P["type"], P["components"], 6>;
/** The value ethers accepts for `P`. */
export type AbiParameterInput<P extends AbiParameter> = InputOf<P["type"], P["components"], 6>;

/** The functions of an ABI. */
export type AbiFunction<A extends Abi> = Extract<A[number], { readonly type: "function" }>;
/** The events of an ABI. */
export type AbiEvent<A extends Abi> = Extract<A[number], { readonly type: "event" }>;

/** A function's name; with `M`, only functions of that state mutability (`"view" | "pure"` for reads). */
export type FunctionName<A extends Abi, M extends string = string> = Extract<
  AbiFunction<A>,
  { readonly stateMutability: M }
>["name"] &
  string;
/** An event's name. */
export type EventName<A extends Abi> = AbiEvent<A>["name"] & string;

type FunctionEntry<A extends Abi, N extends string> = Extract<AbiFunction<A>, { readonly name: N }>;
type ParametersOf<E> = E extends { readonly inputs: infer I extends readonly AbiParameter[] } ? I : readonly [];
type OutputsOf<E> = E extends { readonly outputs: infer O extends readonly AbiParameter[] } ? O : readonly [];

type InputTuple<I extends readonly AbiParameter[]> = {
  readonly [K in keyof I]: I[K] extends AbiParameter ? AbiParameterInput<I[K]> : never;
};

/** What a function returns: nothing, its one output, or its outputs as ethers' `Result` (in order and by name). */
type ResultOf<O extends readonly AbiParameter[]> = O extends readonly []
  ? void
  : O extends readonly [infer Only extends AbiParameter]
    ? AbiParameterOutput<Only>
    : StructOutput<O, 6>;

/** The arguments of function `N`, as a tuple in the ABI's order. */
export type FunctionArgs<A extends Abi, N extends FunctionName<A>> = InputTuple<ParametersOf<FunctionEntry<A, N>>>;
/** What function `N` returns when called (`staticCall` for a write). */
export type FunctionResult<A extends Abi, N extends FunctionName<A>> = ResultOf<OutputsOf<FunctionEntry<A, N>>>;

/** The arguments of event `N`, in order and by name (indexed dynamic values are ethers' `Indexed` hashes). */
export type EventArgs<A extends Abi, N extends EventName<A>> = EventArgsOf<
  ParametersOf<Extract<AbiEvent<A>, { readonly name: N }>>
>;
type EventValue<P extends AbiParameter> = P["indexed"] extends true
  ? P["type"] extends "string" | "bytes" | "tuple" | `${string}]`
    ? Indexed
    : AbiParameterOutput<P>
  : AbiParameterOutput<P>;
type EventArgsOf<I extends readonly AbiParameter[]> = {
  -readonly [K in keyof I]: I[K] extends AbiParameter ? EventValue<I[K]> : never;
} & { [P in I[number] as P["name"] extends `${infer N}` ? (N extends "" ? never : N) : never]: EventValue<P> };

/** A contract method as ethers' `Contract` has it, typed from its ABI entry (TypeChain's shape). */
export interface TypedContractMethod<Args extends readonly unknown[], Output, Mutability extends string> {
  (
    ...args: [...Args, overrides?: Overrides]
  ): Promise<Mutability extends "view" | "pure" ? Output : ContractTransactionResponse>;
  name: string;
  fragment: FunctionFragment;
  getFragment(...args: [...Args, overrides?: Overrides]): FunctionFragment;
  staticCall(...args: [...Args, overrides?: Overrides]): Promise<Output>;
  staticCallResult(...args: [...Args, overrides?: Overrides]): Promise<Result>;
  send(...args: [...Args, overrides?: Overrides]): Promise<ContractTransactionResponse>;
  estimateGas(...args: [...Args, overrides?: Overrides]): Promise<bigint>;
  populateTransaction(...args: [...Args, overrides?: Overrides]): Promise<ContractTransaction>;
}

/**
 * An ethers `Contract` whose methods are typed from `A`: `contract.redemptions(1n)` returns the
 * record's fields, `contract.initiateRedemption(amount, provider)` a transaction response. An
 * overloaded function (one name, several signatures: only the governor's `quorumNumerator`) has
 * no typed method, as ethers refuses the bare name: use `getFunction("quorumNumerator()")`.
 */
export type TypedContract<A extends Abi> = BaseContract & {
  [
    F in AbiFunction<A> as IsUnion<FunctionEntry<A, F["name"] & string>> extends true ? never : F["name"] & string
  ]: TypedContractMethod<InputTuple<ParametersOf<F>>, ResultOf<OutputsOf<F>>, F["stateMutability"] & string>;
};

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type IsUnion<T> = [T] extends [UnionToIntersection<T>] ? false : true;
