// A feed that publishes nothing for a state (no rate file named or listed for it) has not failed:
// the next feed in the state's order of preference serves, and the freshness record says why.
export class NoFileForState extends Error {}
