const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });

/** An instant as a short local date and time, the full one on hover, machine-readable in `dateTime`. */
export const When = ({ iso }: { iso: string }) => (
  <time dateTime={iso} title={new Date(iso).toLocaleString()}>
    {dateTime.format(new Date(iso))}
  </time>
);
