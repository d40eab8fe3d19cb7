/** A time as the user's locale writes it, in a <time> element machines can read. */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <>—</>;
  return <time dateTime={value}>{new Date(value).toLocaleString()}</time>;
}
