import { useFormat, type DateValue } from '../lib/format';

/** A moment as the console's language writes it, for cells and facts declared outside a component. */
export const DateTimeText = ({ value }: { value: DateValue }) => <>{useFormat().dateTime(value)}</>;
