import ApartmentIcon from '@mui/icons-material/Apartment';
import { lazyPage } from '../../components/lazyPage';

/** The business-unit screens, each loaded on first use. */
export const businessUnits = {
  list: lazyPage(async () => (await import('./BusinessUnitList')).BusinessUnitList),
  create: lazyPage(async () => (await import('./BusinessUnitCreate')).BusinessUnitCreate),
  edit: lazyPage(async () => (await import('./BusinessUnitEdit')).BusinessUnitEdit),
  show: lazyPage(async () => (await import('./BusinessUnitEdit')).BusinessUnitShow),
  icon: ApartmentIcon,
};
